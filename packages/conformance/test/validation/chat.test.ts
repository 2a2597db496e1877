/**
 * Every rule of a chat completion request, as a property: generated valid requests pass, and each kind
 * of breach is reported at its path (and nowhere else) with a message a person can act on.
 */
import { describe, expect, it } from "@studio-effect/line"
import * as fc from "fast-check"
import { ChatSchema } from "studio-effect"
import {
  nonEmptyName,
  text,
  validChatMessages,
  validChatRequest,
  validChatTool,
  validDocument,
  validStopSequence,
  validUnstreamedChatRequest
} from "./arbitraries.js"
import { copy, expectIssuesAt, expectValid, wireForm } from "./support.js"

const runs = { numRuns: 200 }

/** A valid request that is not streamed and does not ask for several choices at temperature 0 by accident. */
const calmRequest = validUnstreamedChatRequest.map((request) => {
  const out = copy(request)
  out.temperature = 1
  return out
})

const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }))
/** Not a number, and not `null` either: an optional field given `null` is absent, which is valid. */
const notANumber = fc.oneof(fc.string({ maxLength: 5 }), fc.boolean(), fc.constant([1]))

describe("chat request: valid requests", () => {
  it("every generated valid request passes and decodes to what is sent", () => {
    fc.assert(
      fc.property(validChatRequest, (request) => {
        expect(expectValid(ChatSchema.ChatRequest, request)).toEqual(wireForm(request))
      }),
      runs
    )
  })

  it("the boundaries of each range pass: max_tokens 1 and 4096, temperature 0 and 2, top_p 0 and 1, n 1 and 16, a 64K stop", () => {
    fc.assert(
      fc.property(
        calmRequest,
        fc.constantFrom(1, 4096),
        fc.constantFrom(0, 2),
        fc.constantFrom(0, 1),
        fc.constantFrom(1, 16),
        (request, maxTokens, temperature, topP, n) => {
          const out = copy(request)
          out.max_tokens = maxTokens
          out.n = n
          out.temperature = n > 1 && temperature === 0 ? 2 : temperature
          out.top_p = topP
          out.stop = ["x".repeat(65536)]
          expectValid(ChatSchema.ChatRequest, out)
        }
      ),
      { numRuns: 30 }
    )
  })
})

describe("chat request: model and messages", () => {
  it("a missing, empty or non-string model is reported at model", () => {
    fc.assert(
      fc.property(validChatRequest, fc.oneof(fc.constant(undefined), fc.constant(""), notAString), (request, model) => {
        const out = copy(request)
        if (model === undefined) delete out.model
        else out.model = model
        expectIssuesAt(ChatSchema.ChatRequest, out, ["model"])
      }),
      runs
    )
  })

  it("missing or empty messages are reported at messages", () => {
    fc.assert(
      fc.property(validChatRequest, fc.constantFrom(undefined, [], "hello", null), (request, messages) => {
        const out = copy(request)
        if (messages === undefined) delete out.messages
        else out.messages = messages
        const issues = expectIssuesAt(ChatSchema.ChatRequest, out, ["messages"])
        if (Array.isArray(messages)) expect(issues[0]!.message).toMatch(/at least one message/)
      }),
      runs
    )
  })

  it("a message whose role is not system, user, assistant or tool is reported at messages[i].role", () => {
    const badRole = fc.oneof(
      fc.string({ maxLength: 10 }).filter((role) => !["system", "user", "assistant", "tool"].includes(role)),
      fc.constantFrom("User", "function", "developer")
    )
    fc.assert(
      fc.property(calmRequest, fc.nat(), badRole, (request, at, role) => {
        const out = copy(request)
        // An assistant message that makes tool calls is left alone: without its role, the tool messages
        // answering it would (rightly) be reported too.
        out.messages.push({ role: "user", content: "last" })
        const candidates = out.messages.flatMap((message: any, index: number) =>
          message.role === "assistant" && message.tool_calls !== undefined ? [] : [index]
        )
        const i = candidates[at % candidates.length]
        out.messages[i] = { role, content: "text" }
        const issues = expectIssuesAt(ChatSchema.ChatRequest, out, [`messages[${i}].role`])
        expect(issues[0]!.message).toMatch(/system.*user.*assistant.*tool/)
      }),
      runs
    )
  })

  it("a message without string content is reported at messages[i].content, whatever its role (an assistant message with tool calls aside)", () => {
    fc.assert(
      fc.property(
        calmRequest,
        fc.nat(),
        fc.oneof(fc.constant(undefined), notAString),
        (request, at, content) => {
          const out = copy(request)
          out.messages.push({ role: "user", content: "last" })
          const candidates = out.messages.flatMap((message: any, index: number) =>
            message.role === "assistant" && message.tool_calls !== undefined ? [] : [index]
          )
          const i = candidates[at % candidates.length]
          if (content === undefined) delete out.messages[i].content
          else out.messages[i].content = content
          expectIssuesAt(ChatSchema.ChatRequest, out, [`messages[${i}].content`])
        }
      ),
      runs
    )
  })

  it("a tool message without tool_call_id is reported at messages[i].tool_call_id", () => {
    fc.assert(
      fc.property(calmRequest, fc.nat(), text, (request, at, content) => {
        const out = copy(request)
        const i = at % (out.messages.length + 1)
        out.messages.splice(i, 0, { role: "tool", content })
        expectIssuesAt(ChatSchema.ChatRequest, out, [`messages[${i}].tool_call_id`], /missing/)
      }),
      runs
    )
  })

  it("a tool message answering no tool call of an earlier assistant message is reported at messages[i].tool_call_id", () => {
    fc.assert(
      fc.property(calmRequest, fc.nat(), nonEmptyName, text, (request, at, id, content) => {
        const out = copy(request)
        const i = at % (out.messages.length + 1)
        const unknownId = `unknown_${id}`
        out.messages.splice(i, 0, { role: "tool", content, tool_call_id: unknownId })
        const issues = expectIssuesAt(ChatSchema.ChatRequest, out, [`messages[${i}].tool_call_id`])
        expect(issues[0]!.message).toMatch(/no earlier assistant message/)
      }),
      runs
    )
  })

  it("a tool message answering a call that only a LATER assistant message makes is reported at its own path", () => {
    fc.assert(
      fc.property(calmRequest, text, (request, content) => {
        const out = copy(request)
        const i = out.messages.length
        out.messages.push(
          { role: "tool", content, tool_call_id: "call_later" },
          { role: "assistant", content, tool_calls: [{ id: "call_later", type: "function" }] }
        )
        expectIssuesAt(ChatSchema.ChatRequest, out, [`messages[${i}].tool_call_id`])
      }),
      runs
    )
  })

  it("a tool message answering any earlier call passes, even several messages later", () => {
    fc.assert(
      fc.property(validChatMessages, fc.array(text, { maxLength: 3 }), (messages, later) => {
        const all = [
          { role: "assistant", content: "", tool_calls: [{ id: "call_first" }] },
          ...messages,
          ...later.map((content) => ({ role: "user", content })),
          { role: "tool", content: "42", tool_call_id: "call_first" }
        ]
        expectValid(ChatSchema.ChatRequest, { model: "fpmodel-mini", messages: all })
      }),
      runs
    )
  })
})

describe("chat request: tools and documents", () => {
  it("a tool whose type is not function is reported at tools[i].type", () => {
    fc.assert(
      fc.property(
        calmRequest,
        validChatTool,
        fc.constantFrom("code_interpreter", "retrieval", "mcp", "Function", ""),
        (request, tool, type) => {
          const out = copy(request)
          const tools = out.tools ?? []
          out.tools = [...tools, { ...tool, type }]
          expectIssuesAt(ChatSchema.ChatRequest, out, [`tools[${tools.length}].type`], /"function"/)
        }
      ),
      runs
    )
  })

  it("a function without a non-empty name is reported at tools[i].function.name", () => {
    fc.assert(
      fc.property(calmRequest, validChatTool, fc.constantFrom(undefined, "", 7), (request, tool, name) => {
        const out = copy(request)
        const tools = out.tools ?? []
        const fn: Record<string, unknown> = { ...tool.function }
        if (name === undefined) delete fn.name
        else fn.name = name
        out.tools = [...tools, { type: "function", function: fn }]
        expectIssuesAt(ChatSchema.ChatRequest, out, [`tools[${tools.length}].function.name`])
      }),
      runs
    )
  })

  it("a function without a description is reported at tools[i].function.description", () => {
    fc.assert(
      fc.property(calmRequest, validChatTool, (request, tool) => {
        const out = copy(request)
        const tools = out.tools ?? []
        const { description: _description, ...fn } = tool.function
        out.tools = [...tools, { type: "function", function: fn }]
        expectIssuesAt(ChatSchema.ChatRequest, out, [`tools[${tools.length}].function.description`])
      }),
      runs
    )
  })

  it("a tool without a function is reported at tools[i].function", () => {
    fc.assert(
      fc.property(calmRequest, (request) => {
        const out = copy(request)
        const tools = out.tools ?? []
        out.tools = [...tools, { type: "function" }]
        expectIssuesAt(ChatSchema.ChatRequest, out, [`tools[${tools.length}].function`])
      }),
      runs
    )
  })

  it("a document without string content is reported at documents[i].content", () => {
    fc.assert(
      fc.property(calmRequest, validDocument, fc.oneof(fc.constant(undefined), notAString), (request, doc, content) => {
        const out = copy(request)
        const documents = out.documents ?? []
        const bad: Record<string, unknown> = { ...doc }
        if (content === undefined) delete bad.content
        else bad.content = content
        out.documents = [...documents, bad]
        expectIssuesAt(ChatSchema.ChatRequest, out, [`documents[${documents.length}].content`])
      }),
      runs
    )
  })

  it("a metadata entry without a string key or value is reported at documents[i].metadata[j].key / .value", () => {
    fc.assert(
      fc.property(
        calmRequest,
        text,
        fc.uniqueArray(fc.record({ key: text.filter((key) => key !== "author"), value: text }), {
          maxLength: 2,
          selector: (entry) => entry.key
        }),
        fc.constantFrom("key", "value"),
        fc.oneof(fc.constant(undefined), notAString),
        (request, content, metadata, field, value) => {
          const out = copy(request)
          const documents = out.documents ?? []
          const entry: Record<string, unknown> = { key: "author", value: "someone" }
          if (value === undefined) delete entry[field]
          else entry[field] = value
          out.documents = [...documents, { content, metadata: [...metadata, entry] }]
          expectIssuesAt(ChatSchema.ChatRequest, out, [
            `documents[${documents.length}].metadata[${metadata.length}].${field}`
          ])
        }
      ),
      runs
    )
  })
})

describe("chat request: sampling controls", () => {
  it("max_tokens outside the integers 1..4096 is reported at max_tokens", () => {
    const bad = fc.oneof(
      fc.integer({ min: 4097, max: 1_000_000 }),
      fc.integer({ min: -1000, max: 0 }),
      fc.double({ min: 1.0001, max: 4095.9999, noNaN: true }).filter((x) => !Number.isInteger(x)),
      notANumber
    )
    fc.assert(
      fc.property(calmRequest, bad, (request, maxTokens) => {
        const out = copy(request)
        out.max_tokens = maxTokens
        const issues = expectIssuesAt(ChatSchema.ChatRequest, out, ["max_tokens"])
        if (typeof maxTokens === "number") expect(issues[0]!.message).toMatch(/1 to 4096/)
      }),
      runs
    )
  })

  it("temperature outside 0.0..2.0 is reported at temperature", () => {
    const bad = fc.oneof(
      fc.double({ min: 2.000001, max: 1e6, noNaN: true }),
      fc.double({ min: -1e6, max: -0.000001, noNaN: true }),
      notANumber
    )
    fc.assert(
      fc.property(calmRequest, bad, (request, temperature) => {
        const out = copy(request)
        out.temperature = temperature
        expectIssuesAt(ChatSchema.ChatRequest, out, ["temperature"])
      }),
      runs
    )
  })

  it("top_p outside 0..1.0 is reported at top_p", () => {
    const bad = fc.oneof(
      fc.double({ min: 1.000001, max: 1e6, noNaN: true }),
      fc.double({ min: -1e6, max: -0.000001, noNaN: true }),
      notANumber
    )
    fc.assert(
      fc.property(calmRequest, bad, (request, topP) => {
        const out = copy(request)
        out.top_p = topP
        const issues = expectIssuesAt(ChatSchema.ChatRequest, out, ["top_p"])
        if (typeof topP === "number") expect(issues[0]!.message).toMatch(/between 0 and 1/)
      }),
      runs
    )
  })

  it("a stop string longer than 64K is reported at stop", () => {
    fc.assert(
      fc.property(calmRequest, fc.integer({ min: 65537, max: 70000 }), (request, length) => {
        const out = copy(request)
        out.stop = "s".repeat(length)
        const issues = expectIssuesAt(ChatSchema.ChatRequest, out, ["stop"])
        expect(issues[0]!.message).toMatch(/at most 65536 characters/)
      }),
      { numRuns: 50 }
    )
  })

  it("a stop array with one sequence longer than 64K is reported at stop[j] only", () => {
    fc.assert(
      fc.property(
        calmRequest,
        fc.array(validStopSequence, { maxLength: 3 }),
        fc.nat(),
        fc.integer({ min: 65537, max: 70000 }),
        (request, stops, at, length) => {
          const out = copy(request)
          const j = at % (stops.length + 1)
          const all = [...stops]
          all.splice(j, 0, "s".repeat(length))
          out.stop = all
          expectIssuesAt(ChatSchema.ChatRequest, out, [`stop[${j}]`])
        }
      ),
      { numRuns: 50 }
    )
  })

  it("stop that is neither a string nor an array of strings is reported at stop", () => {
    fc.assert(
      fc.property(calmRequest, fc.oneof(fc.integer(), fc.boolean()), (request, stop) => {
        const out = copy(request)
        out.stop = stop
        const issues = expectIssuesAt(ChatSchema.ChatRequest, out, ["stop"])
        expect(issues[0]!.message).toMatch(/string or an array/)
      }),
      runs
    )
  })

  it("n outside the integers 1..16 is reported at n", () => {
    const bad = fc.oneof(
      fc.integer({ min: 17, max: 10_000 }),
      fc.integer({ min: -100, max: 0 }),
      fc.double({ min: 1.0001, max: 15.9999, noNaN: true }).filter((x) => !Number.isInteger(x)),
      notANumber
    )
    fc.assert(
      fc.property(calmRequest, bad, (request, n) => {
        const out = copy(request)
        out.n = n
        expectIssuesAt(ChatSchema.ChatRequest, out, ["n"])
      }),
      runs
    )
  })
})

describe("chat request: rules across fields", () => {
  it("n > 1 with temperature 0 is reported at temperature", () => {
    fc.assert(
      fc.property(calmRequest, fc.integer({ min: 2, max: 16 }), (request, n) => {
        const out = copy(request)
        out.n = n
        out.temperature = 0
        const issues = expectIssuesAt(ChatSchema.ChatRequest, out, ["temperature"])
        expect(issues[0]!.message).toMatch(/raise temperature or set n to 1/)
      }),
      runs
    )
  })

  it("stream with n other than 1 is reported at n", () => {
    fc.assert(
      fc.property(calmRequest, fc.integer({ min: 2, max: 16 }), (request, n) => {
        const out = copy(request)
        delete out.tools
        out.stream = true
        out.n = n
        const issues = expectIssuesAt(ChatSchema.ChatRequest, out, ["n"])
        expect(issues[0]!.message).toMatch(/set n to 1/)
      }),
      runs
    )
  })

  it("stream with tools is reported at stream; stream with an empty tools array passes", () => {
    fc.assert(
      fc.property(calmRequest, fc.array(validChatTool, { minLength: 1, maxLength: 3 }), (request, tools) => {
        const out = copy(request)
        out.stream = true
        out.n = 1
        out.tools = tools
        expectIssuesAt(ChatSchema.ChatRequest, out, ["stream"], /set stream to false/)
        out.tools = []
        expectValid(ChatSchema.ChatRequest, out)
      }),
      runs
    )
  })

  it("stream with n > 1, temperature 0 and tools reports all three: temperature, n and stream", () => {
    fc.assert(
      fc.property(
        calmRequest,
        fc.integer({ min: 2, max: 16 }),
        fc.array(validChatTool, { minLength: 1, maxLength: 2 }),
        (request, n, tools) => {
          const out = { ...copy(request), stream: true, n, temperature: 0, tools }
          expectIssuesAt(ChatSchema.ChatRequest, out, ["temperature", "n", "stream"])
        }
      ),
      runs
    )
  })
})

describe("chat request: several breaches at once", () => {
  /** Breaches on separate fields, each with the path it must be reported at. */
  const breaches: ReadonlyArray<
    { readonly name: string; readonly apply: (request: any) => string }
  > = [
    { name: "empty model", apply: (r) => (r.model = "", "model") },
    { name: "max_tokens too high", apply: (r) => (r.max_tokens = 5000, "max_tokens") },
    { name: "top_p too high", apply: (r) => (r.top_p = 1.5, "top_p") },
    { name: "long stop", apply: (r) => (r.stop = ["ok", "s".repeat(65537)], "stop[1]") },
    {
      name: "document without content",
      apply: (r) => {
        r.documents = [...(r.documents ?? []), { metadata: [] }]
        return `documents[${r.documents.length - 1}].content`
      }
    },
    {
      name: "tool without name",
      apply: (r) => {
        r.tools = [...(r.tools ?? []), { type: "function", function: { name: "", description: "d" } }]
        return `tools[${r.tools.length - 1}].function.name`
      }
    },
    {
      name: "unanswerable tool message",
      apply: (r) => {
        r.messages = [...r.messages, { role: "tool", content: "x", tool_call_id: "nobody" }]
        return `messages[${r.messages.length - 1}].tool_call_id`
      }
    },
    {
      // A rule across fields, reported together with field-level breaches.
      name: "n > 1 at temperature 0",
      apply: (r) => (r.n = 3, r.temperature = 0, "temperature")
    }
  ]

  it("every breach is reported, each at its path, including rules across fields next to field-level ones", () => {
    fc.assert(
      fc.property(calmRequest, fc.subarray([...breaches], { minLength: 2 }), (request, chosen) => {
        const out = copy(request)
        const paths = chosen.map((breach) => breach.apply(out))
        expectIssuesAt(ChatSchema.ChatRequest, out, paths)
      }),
      runs
    )
  })
})
