/**
 * Validation through the public operations: a request that breaks a rule fails with `ValidationError`
 * listing the issue at its path, and the transport is never called. A valid request does reach it.
 */
import {
  describe,
  Effect,
  expect,
  HttpClient,
  type HttpClientRequest,
  HttpClientResponse,
  isSuccess,
  it,
  Layer,
  outcome,
  Redacted,
  Stream
} from "@studio-effect/line"
import * as fc from "fast-check"
import { Chat, Maestro, StudioClient, StudioError } from "studio-effect"
import { invalidWebSearchUrl, validChatRequest, validChatTool, validRunRequest } from "./arbitraries.js"
import { copy, expectActionable, sentForm } from "./support.js"

/** A transport that records every request it is given and answers with `answer` (or fails the fiber). */
const recordingTransport = (answer?: unknown) => {
  const calls: Array<HttpClientRequest.HttpClientRequest> = []
  const transport = HttpClient.make((request) => {
    calls.push(request)
    return answer === undefined
      ? Effect.die("the transport must not be called for an invalid request")
      : Effect.succeed(HttpClientResponse.fromWeb(
        request,
        new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json" } })
      ))
  })
  const layer = StudioClient.layer({ apiKey: Redacted.make("sk-test"), baseUrl: "https://studio.test" }).pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, transport))
  )
  return { calls, layer }
}

/** The JSON body of a recorded request. */
const bodyOf = (request: HttpClientRequest.HttpClientRequest): unknown =>
  request.body._tag === "Uint8Array" ? JSON.parse(new TextDecoder().decode(request.body.body)) : undefined

/** Runs an operation and returns its `ValidationError` (failing the test on anything else). */
const validationErrorOf = async <A, E>(effect: Effect.Effect<A, E>): Promise<StudioError.ValidationError> => {
  const result = await Effect.runPromise(outcome(effect))
  if (isSuccess(result)) return expect.fail("expected a ValidationError, but the operation succeeded")
  const error = result.failure
  expect(error).toBeInstanceOf(StudioError.ValidationError)
  return error as StudioError.ValidationError
}

const completion = {
  id: "chat-1",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
}

describe("Chat.create validates before sending", () => {
  const breaches = fc.oneof(
    fc.constant({ name: "max_tokens", apply: (r: any) => (r.max_tokens = 4097, "max_tokens") }),
    fc.nat().map((at) => ({
      name: "tool_call_id",
      apply: (r: any) => {
        const i = at % (r.messages.length + 1)
        r.messages.splice(i, 0, { role: "tool", content: "x", tool_call_id: "never-called" })
        return `messages[${i}].tool_call_id`
      }
    })),
    fc.constant({ name: "n with temperature 0", apply: (r: any) => (r.n = 2, r.temperature = 0, "temperature") }),
    fc.constant({ name: "model", apply: (r: any) => (r.model = "", "model") })
  )

  it("a broken rule fails with ValidationError listing its path, and nothing is sent", async () => {
    await fc.assert(
      fc.asyncProperty(validChatRequest, breaches, async (request, breach) => {
        const { calls, layer } = recordingTransport()
        const bad = copy(request)
        const path = breach.apply(bad)
        const error = await validationErrorOf(Chat.create(bad).pipe(Effect.provide(layer)))
        expect(error.source).toBe("client")
        expect(error.issues.map((issue) => issue.path)).toContain(path)
        error.issues.forEach(expectActionable)
        expect(error.message).toContain(path)
        expect(calls).toHaveLength(0)
      }),
      { numRuns: 100 }
    )
  })

  it("a valid request is sent once, as it was given", async () => {
    await fc.assert(
      fc.asyncProperty(validChatRequest, async (request) => {
        const { calls, layer } = recordingTransport(completion)
        const result = await Effect.runPromise(Chat.create(request).pipe(Effect.provide(layer)))
        expect(result.id).toBe("chat-1")
        expect(calls).toHaveLength(1)
        const { stream: _stream, ...sent } = request
        expect(bodyOf(calls[0]!)).toEqual(sentForm(sent))
      }),
      { numRuns: 50 }
    )
  })
})

describe("Chat.stream validates before sending", () => {
  it("tools on a streamed request fail at stream, and nothing is sent", async () => {
    await fc.assert(
      fc.asyncProperty(
        validChatRequest,
        fc.array(validChatTool, { minLength: 1, maxLength: 2 }),
        async (request, tools) => {
          const { calls, layer } = recordingTransport()
          const bad = { ...copy(request), tools, n: 1 }
          const error = await validationErrorOf(Stream.runDrain(Chat.stream(bad)).pipe(Effect.provide(layer)))
          expect(error.issues.map((issue) => issue.path)).toContain("stream")
          expect(calls).toHaveLength(0)
        }
      ),
      { numRuns: 50 }
    )
  })
})

describe("Maestro.create validates before sending", () => {
  const breaches = fc.oneof(
    invalidWebSearchUrl.map((url) => ({
      name: "web search url",
      apply: (r: any) => {
        r.tools = [...(r.tools ?? []), { type: "web_search", urls: [url] }]
        return `tools[${r.tools.length - 1}].urls[0]`
      }
    })),
    fc.constant({
      name: "duplicate label",
      apply: (r: any) => {
        const tool = { type: "mcp", server_label: "same", server_url: "https://mcp.example.com" }
        r.tools = [...(r.tools ?? []), tool, tool]
        return `tools[${r.tools.length - 1}].server_label`
      }
    }),
    fc.constant({
      name: "alternation",
      apply: (
        r: any
      ) => (r.input = [{ role: "assistant", content: "a" }, { role: "assistant", content: "b" }], "input[1].role")
    }),
    fc.constant({
      name: "requirement words",
      apply: (
        r: any
      ) => (r.requirements = [{ name: "long", description: "word ".repeat(129) }], "requirements[0].description")
    }),
    fc.constant({ name: "models", apply: (r: any) => (r.models = ["fpmodel-mini", "fpmodel-large"], "models") })
  )

  it("a broken rule fails with ValidationError listing its path, and nothing is sent", async () => {
    await fc.assert(
      fc.asyncProperty(validRunRequest, breaches, async (request, breach) => {
        const { calls, layer } = recordingTransport()
        const bad = copy(request)
        const path = breach.apply(bad)
        const error = await validationErrorOf(Maestro.create(bad).pipe(Effect.provide(layer)))
        expect(error.source).toBe("client")
        expect(error.operation).toBe("maestro.create")
        expect(error.issues.map((issue) => issue.path)).toContain(path)
        error.issues.forEach(expectActionable)
        expect(calls).toHaveLength(0)
      }),
      { numRuns: 100 }
    )
  })

  it("a valid request is sent once, as it was given", async () => {
    await fc.assert(
      fc.asyncProperty(validRunRequest, async (request) => {
        const { calls, layer } = recordingTransport({ id: "run-1", status: "in_progress" })
        const run = await Effect.runPromise(Maestro.create(request).pipe(Effect.provide(layer)))
        expect(run.id).toBe("run-1")
        expect(calls).toHaveLength(1)
        expect(bodyOf(calls[0]!)).toEqual(sentForm(request))
      }),
      { numRuns: 50 }
    )
  })
})
