/**
 * What the benchmark server sends and what every client must receive: the tokens of a stream, the
 * precomputed events and completion, the requests the clients send, and the tally that proves a client
 * received every token intact.
 */

/** The API key every client sends; the server does not check it. */
export const apiKey = "sk-bench-key"

/** The chat completion id of every answer. */
export const completionId = "chat-0123456789abcdef0123456789abcdef"

/**
 * The tokens of a stream, in turn. Some are several bytes in UTF-8 (so coalesced writes cut characters),
 * some need JSON escapes.
 */
export const tokens: ReadonlyArray<string> = [
  "The",
  " quick",
  " brown",
  " fox",
  " jumps",
  " over",
  " the",
  " lazy",
  " dog",
  ".",
  " Caf\u00e9",
  " na\u00efve",
  " \u4e2d\u6587",
  " \u{1F600}",
  " \"quoted\"",
  "\n",
  " back\\slash",
  " \u05e9\u05dc\u05d5\u05dd",
  " \u00fcber",
  " end"
]

/** The token at position `i` of a stream. */
export const tokenAt = (i: number): string => tokens[i % tokens.length]!

/** How many content tokens the answer of a non-streamed request has. */
export const completionTokens = 32

/** The content of every non-streamed answer. */
export const completionContent: string = Array.from({ length: completionTokens }, (_, i) => tokenAt(i)).join("")

/** The body of every non-streamed answer. */
export const completionBody: string = JSON.stringify({
  id: completionId,
  choices: [{
    index: 0,
    message: { role: "assistant", content: completionContent, tool_calls: null },
    logprobs: null,
    finish_reason: "stop"
  }],
  usage: { prompt_tokens: 12, completion_tokens: completionTokens, total_tokens: 12 + completionTokens }
})

const chunkEvent = (delta: Record<string, unknown>, finishReason: string | null, usage?: unknown): string =>
  `data: ${
    JSON.stringify({
      id: completionId,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(usage === undefined ? {} : { usage })
    })
  }\n\n`

/** The first event of a stream: the role. */
export const roleEvent: string = chunkEvent({ role: "assistant" }, null)

/** The content event of each token, by the token's position in `tokens`. */
export const contentEvents: ReadonlyArray<string> = tokens.map((token) => chunkEvent({ content: token }, null))

/** The last chunk of a stream of `count` tokens: an empty delta with the finish reason and usage. */
export const finalEvent = (count: number): string =>
  chunkEvent({ content: "" }, "stop", { prompt_tokens: 12, completion_tokens: count, total_tokens: 12 + count })

/** The event that ends a stream. */
export const doneEvent = "data: [DONE]\n\n"

/** A short chat request, as an application would send one per call. */
export const chatRequest = {
  model: "fpmodel-mini",
  messages: [{ role: "user" as const, content: "Write a sentence about a fox." }]
}

/**
 * Proof that a client received every token intact: the count, the total length, and a sum of a hash of
 * each token's length and last character (a character cut at a read boundary and decoded as U+FFFD changes
 * both). The sum does not depend on the order: the tokens of concurrent streams may interleave.
 */
export interface Tally {
  count: number
  length: number
  hash: number
}

/** An empty tally. */
export const emptyTally = (): Tally => ({ count: 0, length: 0, hash: 0 })

/** Adds one token to a tally. */
export const addToken = (tally: Tally, text: string): void => {
  tally.count++
  tally.length += text.length
  tally.hash = (tally.hash + Math.imul(text.length * 65599 + text.charCodeAt(text.length - 1), 0x9e3779b1)) | 0
}

/** The tally of `streams` streams of `count` tokens each. */
export const expectedStreamTally = (count: number, streams = 1): Tally => {
  const tally = emptyTally()
  for (let s = 0; s < streams; s++) {
    for (let i = 0; i < count; i++) addToken(tally, tokenAt(i))
  }
  return tally
}

/**
 * A typical chat request for the validation cost: 10 messages (system, user and assistant turns, a tool
 * call and its answer), two tools, three documents and sampling settings.
 */
export const typicalChatRequest = {
  model: "fpmodel-large",
  messages: [
    { role: "system", content: "You are a careful assistant for a travel company. Answer briefly." },
    { role: "user", content: "I want to visit Lisbon in May. What should I pack?" },
    { role: "assistant", content: "Light layers, a rain jacket and comfortable shoes for the hills." },
    { role: "user", content: "What is the weather forecast for the first week?" },
    {
      role: "assistant",
      content: "",
      tool_calls: [{
        id: "call-1",
        type: "function",
        function: { name: "get_forecast", arguments: "{\"city\":\"Lisbon\",\"days\":7}" }
      }]
    },
    {
      role: "tool",
      content: "{\"forecast\":[\"sun\",\"sun\",\"clouds\",\"rain\",\"sun\",\"sun\",\"sun\"]}",
      tool_call_id: "call-1"
    },
    { role: "assistant", content: "Mostly sunny, with rain expected on the fourth day." },
    { role: "user", content: "Can you book a table for two on the second evening?" },
    { role: "assistant", content: "Which part of the city would you prefer?" },
    { role: "user", content: "Somewhere in Alfama, with a view of the river." }
  ],
  tools: [
    {
      type: "function",
      function: {
        name: "get_forecast",
        description: "Returns the daily weather forecast of a city for up to 14 days.",
        parameters: {
          type: "object",
          properties: {
            city: { type: "string", description: "The city name" },
            days: { type: "integer", description: "How many days, 1 to 14" }
          },
          required: ["city"]
        }
      }
    },
    {
      type: "function",
      function: {
        name: "book_table",
        description: "Books a restaurant table; returns the confirmation number or why it failed.",
        parameters: {
          type: "object",
          properties: {
            neighbourhood: { type: "string", description: "Where in the city" },
            people: { type: "integer", description: "How many guests" },
            date: { type: "string", description: "The date, YYYY-MM-DD" }
          },
          required: ["neighbourhood", "people", "date"]
        }
      }
    }
  ],
  documents: [
    { id: "doc-1", content: "Alfama is the oldest district of Lisbon.", metadata: [{ key: "source", value: "guide" }] },
    { id: "doc-2", content: "Restaurants in Alfama often have fado music in the evening." },
    { content: "Trams 28 and 12 climb through Alfama.", metadata: [{ key: "topic", value: "transport" }] }
  ],
  max_tokens: 512,
  temperature: 0.4,
  top_p: 0.9,
  stop: ["\n\nUser:"]
}

/** A typical run request for the validation cost: 10 requirements and four tools. */
export const typicalRunRequest = {
  input: [
    { role: "user", content: "Write a product description for our new hiking boot." },
    { role: "assistant", content: "Which features should it stress?" },
    { role: "user", content: "Waterproofing, weight and grip on wet rock." }
  ],
  system_prompt: "You write product copy for an outdoor equipment shop.",
  requirements: Array.from({ length: 10 }, (_, i) => ({
    name: `requirement-${i + 1}`,
    description: `The description must mention feature number ${i + 1} in one short sentence.`,
    is_mandatory: i < 3
  })),
  tools: [
    { type: "web_search", urls: ["https://example.com", "docs.example.org/boots"] },
    { type: "file_search", labels: ["catalog"], file_ids: ["file-1", "file-2"] },
    {
      type: "mcp",
      server_label: "inventory",
      server_url: "https://mcp.example.com/inventory",
      headers: { "X-Team": "copy" },
      allowed_tools: ["stock_level"]
    },
    {
      type: "http",
      function: {
        name: "price",
        description: "Returns the price of a product",
        parameters: { type: "object", properties: { sku: { type: "string" } } }
      },
      endpoint: { url: "https://api.example.com/price", headers: { Authorization: "Bearer x" } }
    }
  ],
  models: ["jamba-large"],
  budget: "medium",
  response_language: "english",
  include: ["requirements_result"]
}
