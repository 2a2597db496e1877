/**
 * The span of every operation: a client span named `studio.<operation>`, carrying the GenAI system and the
 * operation's attributes. No stack trace is captured: it would cost on every call and say nothing a span
 * name does not.
 */
import type * as Tracer from "effect/Tracer"

export const spanOptions = (attributes: Record<string, unknown>): Tracer.SpanOptions => ({
  kind: "client",
  attributes: { "gen_ai.system": "studio", ...attributes },
  captureStackTrace: false
})
