/**
 * The provider refuses exactly the requests the core's rules (`acceptChatRequest`) refuse, with an
 * `InvalidArgumentError` naming the fields, before anything is sent: the scripted service counts no request.
 */
import { InvalidArgumentError, type LanguageModelV4CallOptions, type LanguageModelV4Prompt } from "@ai-sdk/provider"
import fc from "fast-check"
import { acceptChatRequest } from "studio-effect-core/validate/chatRequest"
import { maxStopLength } from "studio-effect-core/wire/chat"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createStudio, type StudioProvider } from "../src/index.js"
import { completion, type Scripted, startScripted } from "./support/scripted.js"

let server: Scripted
let studio: StudioProvider

beforeAll(async () => {
  server = await startScripted((_, response) => {
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify(completion({ content: "ok" })))
  })
  studio = createStudio({ baseURL: server.url, apiKey: "sk-test" })
})

afterAll(() => server.close())

const optional = <A>(arbitrary: fc.Arbitrary<A>) => fc.option(arbitrary, { nil: undefined })

const number = fc.oneof(
  fc.integer({ min: -5, max: 5000 }),
  fc.double({ min: -1, max: 3, noNaN: false }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 0, 1, 2, 4096, 4097)
)

const text = fc.string({ maxLength: 8 })

const metadata = fc.oneof(
  fc.dictionary(text, text, { maxKeys: 3 }),
  fc.array(fc.record({ key: text, value: text }), { maxLength: 3 }),
  fc.constantFrom({ a: 1 }, [{ key: "k" }], "text", [{ key: "__proto__", value: "v" }])
)

const document = fc.oneof(
  fc.record({ content: text, id: optional(text), metadata: optional(metadata) }, { requiredKeys: ["content"] }),
  fc.constantFrom({ content: 3 }, { id: "no-content" }, { content: "c", extra: true }, "a string", [])
)

const user = (content: string): LanguageModelV4Prompt[number] => ({
  role: "user",
  content: [{ type: "text", text: content }]
})

const prompt = fc.constantFrom<Array<LanguageModelV4Prompt>>(
  [user("Hello")],
  [{ role: "system", content: "Be brief." }, user("Hello")],
  [],
  [user("Hi"), {
    role: "tool",
    content: [{ type: "tool-result", toolCallId: "call-unknown", toolName: "t", output: { type: "text", value: "x" } }]
  }],
  [user("Hi"), {
    role: "assistant",
    content: [{ type: "tool-call", toolCallId: "call-1", toolName: "t", input: { a: 1 } }]
  }, {
    role: "tool",
    content: [{ type: "tool-result", toolCallId: "call-1", toolName: "t", output: { type: "json", value: { b: 2 } } }]
  }]
)

const options = fc.record({
  modelId: fc.constantFrom("fpmodel-mini", ""),
  prompt,
  maxOutputTokens: optional(number),
  temperature: optional(number),
  topP: optional(number),
  stopSequences: optional(
    fc.array(fc.constantFrom("END", "", "x".repeat(maxStopLength), "x".repeat(maxStopLength + 1)), { maxLength: 2 })
  ),
  documents: optional(fc.array(document, { maxLength: 3 }))
})

describe("request validation", () => {
  it("refuses what the core refuses, before sending anything; sends what it accepts", async () => {
    await fc.assert(
      fc.asyncProperty(options, async ({ documents, modelId, prompt, ...settings }) => {
        const call: LanguageModelV4CallOptions = {
          prompt,
          ...Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)),
          ...(documents === undefined ? {} : { providerOptions: { studio: { documents } } })
        }
        const expected = acceptChatRequest({
          model: modelId,
          messages: prompt.flatMap((message): Array<Record<string, unknown>> =>
            message.role === "system"
              ? [{ role: "system", content: message.content }]
              : message.role === "user"
              ? [{ role: "user", content: "Hi" }]
              : message.role === "assistant"
              ? [{
                role: "assistant",
                tool_calls: [{ id: "call-1", type: "function", function: { name: "t", arguments: "{}" } }]
              }]
              : [{
                role: "tool",
                tool_call_id: message.content[0]!.type === "tool-result" ? message.content[0]!.toolCallId : "",
                content: "x"
              }]
          ),
          ...(settings.maxOutputTokens === undefined ? {} : { max_tokens: settings.maxOutputTokens }),
          ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
          ...(settings.topP === undefined ? {} : { top_p: settings.topP }),
          ...(settings.stopSequences === undefined || settings.stopSequences.length === 0
            ? {}
            : { stop: settings.stopSequences }),
          ...(documents === undefined ? {} : { documents })
        })
        const before = server.requests.length
        const model = studio(modelId)
        let refusal: unknown
        try {
          await model.doGenerate(call)
        } catch (error) {
          refusal = error
        }
        if (expected === undefined) {
          expect(InvalidArgumentError.isInstance(refusal)).toBe(true)
          expect((refusal as Error).message).toMatch(/^Invalid chat request:\n {2}- /)
          expect((refusal as Error).message).toContain("nothing was sent")
          expect(server.requests.length).toBe(before)
        } else {
          expect(refusal).toBeUndefined()
          expect(server.requests.length).toBe(before + 1)
          const sent = JSON.parse(server.requests.at(-1)!.body)
          expect(sent).toMatchObject({
            model: modelId,
            ...(expected.max_tokens === undefined ? {} : { max_tokens: expected.max_tokens }),
            ...(expected.documents === undefined ? {} : { documents: expected.documents })
          })
        }
      }),
      { numRuns: 300 }
    )
  })

  it("names the field at fault and its bounds", async () => {
    const before = server.requests.length
    const error = await studio("fpmodel-mini").doGenerate({
      prompt: [user("Hi")],
      maxOutputTokens: 5000,
      temperature: 3
    }).catch((error: unknown) => error)
    expect((error as Error).message).toContain(
      "max_tokens (maxOutputTokens): must be an integer from 1 to 4096, not 5000"
    )
    expect((error as Error).message).toContain("temperature: must be a number from 0 to 2, not 3")
    expect(server.requests.length).toBe(before)
  })

  it("a tool without a description is refused by the core's rule, before sending", async () => {
    const before = server.requests.length
    const error = await studio("fpmodel-mini").doGenerate({
      prompt: [user("Hi")],
      tools: [{ type: "function", name: "lookup", inputSchema: { type: "object", properties: {} } }]
    }).catch((error: unknown) => error)
    expect(InvalidArgumentError.isInstance(error)).toBe(true)
    expect((error as Error).message).toContain("has no description")
    expect(server.requests.length).toBe(before)
  })
})
