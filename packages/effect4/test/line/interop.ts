/**
 * Shims for the conformance suite's interop tests: the line's AI modules (`effect/ai`) and what differs in
 * them between the majors.
 */
import * as Prompt from "effect/ai/Prompt"
import type * as Response from "effect/ai/Response"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Tracer from "effect/Tracer"

export * as LanguageModel from "effect/ai/LanguageModel"
export * as Prompt from "effect/ai/Prompt"
export * as Tool from "effect/ai/Tool"
export * as Toolkit from "effect/ai/Toolkit"

/** The package the line's AI modules come from, which only `studio-effect/ai` may load. */
export const aiPackage = "effect/ai" as const

/** A prompt followed by more messages (`Prompt.concat`, Effect 3's `Prompt.merge`). */
export const concatPrompts = (self: Prompt.Prompt, other: Prompt.RawInput): Prompt.Prompt => Prompt.concat(self, other)

/** A tool's parameters from a struct's fields, as the line's `Tool.make` takes them (a `Schema.Struct`). */
export const toolParameters = <const Fields extends Schema.Struct.Fields>(fields: Fields): Schema.Struct<Fields> =>
  Schema.Struct(fields)

/** Whether a response's tool call keeps the arguments as the model wrote them, not decoded by the tool's schema. */
export const responseKeepsWrittenParams = true

/** The tokens a response used, as numbers: the prompt's, the answer's, and both together. */
export const tokenCounts = (usage: Response.Usage): {
  readonly input: number | undefined
  readonly output: number | undefined
  readonly total: number | undefined
} => ({
  input: usage.inputTokens.total,
  output: usage.outputTokens.total,
  total: usage.inputTokens.total === undefined || usage.outputTokens.total === undefined
    ? undefined
    : usage.inputTokens.total + usage.outputTokens.total
})

/** A response-metadata part's response id and model id, as strings. */
export const responseIds = (
  part: Response.ResponseMetadataPart
): { readonly id: string | undefined; readonly modelId: string | undefined } => ({
  id: part.id,
  modelId: part.modelId
})

/** The GenAI span attribute that names the provider (`gen_ai.provider.name`; `gen_ai.system` before). */
export const providerAttribute = "gen_ai.provider.name" as const

/** A schema with an identifier and a description, as its annotations. */
export const annotate = <S extends Schema.Top>(
  schema: S,
  annotations: { readonly identifier?: string; readonly description?: string }
): S => schema.annotate(annotations) as S

/** A schema of one of these strings. */
export const literals = <const L extends readonly [string, ...Array<string>]>(values: L): Schema.Literals<L> =>
  Schema.Literals(values)

/** An integer from `minimum` to `maximum`. */
export const intBetween = (minimum: number, maximum: number): Schema.Int =>
  Schema.Int.check(Schema.isBetween({ minimum, maximum }))

/** Yields to the other fibers once. */
export const yieldNow: Effect.Effect<void> = Effect.yieldNow

/** A tracer that records, by span name, the name of each span's parent ("" for a root span). */
export const recordParents = (): { readonly parentOf: Map<string, string>; readonly tracer: Tracer.Tracer } => {
  const parentOf = new Map<string, string>()
  const tracer = Tracer.make({
    span: ({ annotations, kind, links, name, parent, startTime }) => {
      parentOf.set(name, Option.match(parent, { onNone: () => "", onSome: (span) => span.spanId }))
      return {
        _tag: "Span",
        name,
        spanId: name,
        traceId: "trace",
        parent,
        annotations,
        status: { _tag: "Started", startTime },
        attributes: new Map(),
        links,
        sampled: true,
        kind,
        end: () => {},
        attribute: () => {},
        event: () => {},
        addLinks: () => {}
      }
    }
  })
  return { parentOf, tracer }
}
