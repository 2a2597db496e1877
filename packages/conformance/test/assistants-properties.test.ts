import { assert, describe, Effect, HttpClient, HttpClientResponse, it, Layer, Redacted } from "@studio-effect/line"
/**
 * The rules of an assistant run, as properties through `Assistants.run`: generated valid requests are sent
 * as given (only the fields given, so the stored assistant keeps the others), and each kind of breach fails
 * with `ValidationError` at its path before anything is sent.
 */
import type { AssistantRunRequest } from "@studio-effect/line/src/AssistantSchema.js"
import * as fc from "fast-check"
import { Assistants, StudioClient } from "studio-effect"
import { wireJsonValue } from "./validation/arbitraries.js"
import { sentForm } from "./validation/support.js"

const runs = { numRuns: 150 }

/** A property over generated values whose check is an Effect, run `runs.numRuns` times. */
const property = <Values extends Array<unknown>>(
  name: string,
  arbitraries: { readonly [K in keyof Values]: fc.Arbitrary<Values[K]> },
  check: (values: Values) => Effect.Effect<void, unknown>
) =>
  it(name, () =>
    fc.assert(
      fc.asyncProperty(fc.tuple<Values>(...arbitraries), (values) => Effect.runPromise(check(values))),
      runs
    ))

interface Sent {
  readonly url: string
  readonly body: unknown
}

/** A client over an in-memory transport that records what was sent and answers with a completed run. */
const recordingClient = () => {
  const sent: Array<Sent> = []
  const transport = HttpClient.make((request, url) =>
    Effect.sync(() => {
      const text = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
      sent.push({ url: url.pathname, body: JSON.parse(text) })
      return HttpClientResponse.fromWeb(
        request,
        new Response(JSON.stringify({ id: "run-1", status: "completed", result: "ok" }), {
          status: 200,
          headers: { "content-type": "application/json" }
        })
      )
    })
  )
  const layer = StudioClient.layer({ apiKey: Redacted.make("k"), baseUrl: "https://studio.test" }).pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, transport)),
    Layer.orDie
  )
  return { sent, layer }
}

// ---------------------------------------------------------------------------------------------------------
// generators
// ---------------------------------------------------------------------------------------------------------

const message = fc.record({ role: fc.constantFrom("user" as const, "assistant" as const), content: fc.string() })
const input = fc.array(message, { minLength: 1, maxLength: 6 })
const includeValue = fc.constantFrom(
  "data_sources" as const,
  "requirements_result" as const,
  "requirements_result.metadata" as const
)
const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/)
const jsonObject = fc.dictionary(key, wireJsonValue({ maxDepth: 2 }), { maxKeys: 4 })
const outputType = fc.oneof(fc.constant("json" as const), jsonObject)
const requirement = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 12 }),
    description: fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 20 }).map((words) => words.join(" ")),
    is_mandatory: fc.boolean()
  },
  { requiredKeys: ["name", "description"] }
)
/** The fields of the stored assistant a call may override. */
const overrides = fc.record(
  {
    system_prompt: fc.string(),
    requirements: fc.array(requirement, { maxLength: 10 }),
    models: fc.array(fc.constantFrom("fpmodel-large", "fpmodel-mini"), { maxLength: 1 }),
    budget: fc.constantFrom("low" as const, "medium" as const, "high" as const),
    response_language: fc.constantFrom("english" as const, "french" as const, "unset" as const, null)
  },
  { requiredKeys: [] }
)

const validRequest: fc.Arbitrary<AssistantRunRequest> = fc.tuple(
  input,
  fc.option(outputType, { nil: undefined }),
  fc.option(fc.uniqueArray(includeValue, { maxLength: 3 }), { nil: undefined }),
  overrides
).map(([input, output_type, include, rest]) => ({
  input,
  ...(output_type === undefined ? {} : { output_type }),
  ...(include === undefined ? {} : { include }),
  ...rest
}))

/** Anything that is neither an object nor the string "json". */
const badOutputType = fc.oneof(
  fc.string().filter((text) => text !== "json"),
  fc.integer(),
  fc.boolean(),
  fc.array(fc.integer())
)

const badIncludeValue = fc.string().filter((text) =>
  !["data_sources", "requirements_result", "requirements_result.metadata"].includes(text)
)

const badInput = fc.oneof(
  fc.constant([]),
  fc.string(),
  fc.integer(),
  fc.constant(null),
  fc.array(fc.record({ role: fc.constantFrom("system", "tool", "bot"), content: fc.string() }), { minLength: 1 }),
  fc.array(fc.record({ role: fc.constant("user") }), { minLength: 1 })
)

/** Runs the request and returns the paths of the issues, checking that nothing was sent. */
const issuePaths = (request: unknown) =>
  Effect.gen(function*() {
    const client = recordingClient()
    const error = yield* Assistants.run("asst_1", request as AssistantRunRequest).pipe(
      Effect.provide(client.layer),
      Effect.flip
    )
    assert.strictEqual(error._tag, "ValidationError")
    assert.strictEqual(client.sent.length, 0)
    return error._tag === "ValidationError" ? error.issues.map((issue) => issue.path) : []
  })

// ---------------------------------------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------------------------------------

describe("assistant run rules", () => {
  property(
    "a valid request is sent as given: only its own fields, to /run",
    [validRequest],
    ([request]) =>
      Effect.gen(function*() {
        const client = recordingClient()
        const run = yield* Assistants.run("asst_1", request).pipe(Effect.provide(client.layer))
        assert.strictEqual(run.status, "completed")
        assert.strictEqual(client.sent.length, 1)
        assert.strictEqual(client.sent[0]!.url, "/studio/v1/assistants/asst_1/run")
        // fields left out are not sent, so the stored assistant's values apply to them
        assert.deepStrictEqual(client.sent[0]!.body, sentForm(request))
      })
  )

  property(
    "output_type is an object or \"json\", nothing else",
    [validRequest, badOutputType],
    ([
      request,
      output_type
    ]) => Effect.map(issuePaths({ ...request, output_type }), (paths) => assert.deepStrictEqual(paths, ["output_type"]))
  )

  property(
    "include takes data_sources, requirements_result and requirements_result.metadata only",
    [validRequest, fc.array(includeValue, { maxLength: 3 }), badIncludeValue, fc.nat()],
    ([request, include, bad, at]) => {
      const position = at % (include.length + 1)
      const values = [...include.slice(0, position), bad, ...include.slice(position)]
      return Effect.map(
        issuePaths({ ...request, include: values }),
        (paths) => assert.deepStrictEqual(paths, [`include[${position}]`])
      )
    }
  )

  property(
    "input messages are required",
    [validRequest, badInput],
    ([request, input]) =>
      Effect.map(issuePaths({ ...request, input }), (paths) => {
        assert.isAbove(paths.length, 0)
        assert.isTrue(paths.every((path) => path.startsWith("input")), paths.join(", "))
      })
  )

  property("a request without input is refused", [validRequest], ([request]) => {
    const { input: _input, ...rest } = request
    return Effect.map(issuePaths(rest), (paths) => assert.deepStrictEqual(paths, ["input"]))
  })

  property("overrides follow the rules of a run", [validRequest, fc.integer({ min: 2, max: 4 })], ([
    request,
    count
  ]) =>
    Effect.map(
      issuePaths({ ...request, models: Array.from({ length: count }, () => "fpmodel-mini") }),
      (paths) => assert.deepStrictEqual(paths, ["models"])
    ))
})
