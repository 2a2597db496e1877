/**
 * Generators of requests that keep every rule of the interface, for chat completions and runs, and of the
 * parts they are made of. Property tests break one rule of a generated request and check that exactly
 * that breach is reported; the reference service and the benchmarks use them as realistic traffic.
 */
import type { AssistantRunRequest, CreateAssistantRequest } from "@studio-effect/line/src/AssistantSchema.js"
import type { ChatRequest } from "@studio-effect/line/src/ChatSchema.js"
import type { RunRequest } from "@studio-effect/line/src/MaestroSchema.js"
import * as fc from "fast-check"
import { chatModels, runModels } from "studio-effect-core/wire/models"
import { responseLanguages } from "studio-effect-core/wire/runs"

// ---------------------------------------------------------------------------------------------------------
// text and names
// ---------------------------------------------------------------------------------------------------------

/** Message text: any string, with the occasional newline, quote or non-ASCII character. */
export const text: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.lorem({ maxCount: 8 })
)

/**
 * A name that is not empty. Never `__proto__`: decoding a record (function parameters, headers) with that
 * key sets the prototype of the decoded object instead of keeping the key, so it would not round-trip.
 */
export const nonEmptyName: fc.Arbitrary<string> = fc.string({ minLength: 1, maxLength: 20 }).filter((name) =>
  name !== "__proto__"
)

/** A word as a person counts it: no whitespace inside. */
export const word: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z0-9.,'-]{1,10}$/)

/** Text of exactly `count` words, separated by runs of spaces, tabs or newlines. */
export const wordsText = (count: number): fc.Arbitrary<string> =>
  fc.tuple(
    fc.array(word, { minLength: count, maxLength: count }),
    fc.array(fc.constantFrom(" ", "  ", "\t", "\n", " \n "), { minLength: count, maxLength: count })
  ).map(([words, gaps]) => words.map((w, i) => i === 0 ? w : `${gaps[i]}${w}`).join(""))

// ---------------------------------------------------------------------------------------------------------
// domains and URLs
// ---------------------------------------------------------------------------------------------------------

// "xn--" starts a punycode label, which a URL parser checks (and rejects when it is not valid punycode).
const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/).filter((l) => !l.startsWith("xn--"))
const topLevel = fc.stringMatching(/^[a-z]{2,6}$/)

/** A domain name: `example.com`, `a-b.example.org`. */
export const domain: fc.Arbitrary<string> = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), topLevel)
  .map(([labels, tld]) => [...labels, tld].join("."))

/** A URL path without the leading slash: `docs/guide`. */
export const urlPath: fc.Arbitrary<string> = fc.array(fc.stringMatching(/^[A-Za-z0-9_~-]{1,8}$/), {
  minLength: 1,
  maxLength: 3
}).map((segments) => segments.join("/"))

/** A fully qualified http(s) URL, as an mcp `server_url` or an http tool's `endpoint.url` needs. */
export const absoluteUrl: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom("https", "http"),
  domain,
  fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  fc.option(urlPath, { nil: undefined })
).map(([scheme, host, port, path]) =>
  `${scheme}://${host}${port === undefined ? "" : `:${port}`}${path === undefined ? "" : `/${path}`}`
)

/** The four shapes of a `web_search.urls` entry, by name. */
export const webSearchUrlShapes = {
  httpsDomain: domain.map((d) => `https://${d}`),
  domain,
  domainPath: fc.tuple(domain, urlPath).map(([d, path]) => `${d}/${path}`),
  subdomain: fc.tuple(label, domain).map(([sub, d]) => `${sub}.${d}`)
} as const

/** A `web_search.urls` entry in one of the four accepted shapes. */
export const webSearchUrl: fc.Arbitrary<string> = fc.oneof(
  webSearchUrlShapes.httpsDomain,
  webSearchUrlShapes.domain,
  webSearchUrlShapes.domainPath,
  webSearchUrlShapes.subdomain
)

/** Strings that are none of the four shapes: spaces, other schemes, bare words, paths of https URLs. */
export const invalidWebSearchUrl: fc.Arbitrary<string> = fc.oneof(
  fc.constant(""),
  fc.constant("localhost"),
  fc.tuple(domain, word).map(([d, w]) => `${d} ${w}`),
  domain.map((d) => `http://${d}`),
  domain.map((d) => `ftp://${d}`),
  fc.tuple(domain, urlPath).map(([d, path]) => `https://${d}/${path}`),
  domain.map((d) => `.${d}`),
  domain.map((d) => `${d}.`),
  fc.stringMatching(/^[a-z]{1,10}$/),
  fc.stringMatching(/^[0-9]{1,3}(\.[0-9]{1,3}){3}$/)
)

/** Strings that are not fully qualified http(s) URLs. */
export const notAbsoluteUrl: fc.Arbitrary<string> = fc.oneof(
  fc.constant(""),
  domain,
  fc.tuple(domain, urlPath).map(([d, path]) => `${d}/${path}`),
  urlPath.map((path) => `/${path}`),
  domain.map((d) => `ftp://${d}`),
  domain.map((d) => `mailto:someone@${d}`)
)

// ---------------------------------------------------------------------------------------------------------
// chat
// ---------------------------------------------------------------------------------------------------------

type ChatMessage = ChatRequest["messages"][number]

/** A stretch of conversation: one message, or an assistant turn with tool calls and the answers to some. */
const chatSegment = (index: number): fc.Arbitrary<ReadonlyArray<ChatMessage>> =>
  fc.oneof(
    text.map((content): ReadonlyArray<ChatMessage> => [{ role: "system", content }]),
    text.map((content): ReadonlyArray<ChatMessage> => [{ role: "user", content }]),
    text.map((content): ReadonlyArray<ChatMessage> => [{ role: "assistant", content }]),
    fc.tuple(
      text,
      fc.array(fc.tuple(nonEmptyName, fc.json(), fc.boolean(), text), { minLength: 1, maxLength: 3 })
    ).map(([content, calls]): ReadonlyArray<ChatMessage> => [
      {
        role: "assistant",
        content,
        tool_calls: calls.map(([name, args], k) => ({
          id: `call_${index}_${k}`,
          type: "function",
          function: { name, arguments: args }
        }))
      },
      ...calls.flatMap(([, , answered, output], k): Array<ChatMessage> =>
        answered ? [{ role: "tool", content: output, tool_call_id: `call_${index}_${k}` }] : []
      )
    ])
  )

/**
 * A message history that keeps the rules: roles from the four kinds, and every tool message answering a
 * tool call of an earlier assistant message.
 */
export const validChatMessages: fc.Arbitrary<ReadonlyArray<ChatMessage>> = fc.integer({ min: 1, max: 6 }).chain((
  count
) => fc.tuple(...Array.from({ length: count }, (_, index) => chatSegment(index))).map((segments) => segments.flat()))

/**
 * A JSON Schema of function parameters as the interface describes them: an object whose properties each
 * have a type and a description, with `required` naming some of those properties.
 */
export const functionParameters = fc.dictionary(
  nonEmptyName,
  fc.record({
    type: fc.constantFrom("string", "integer", "float", "number", "array", "boolean", "object"),
    description: text
  }),
  { maxKeys: 4 }
).chain((properties) =>
  fc.subarray(Object.keys(properties)).map((required) => ({ type: "object" as const, properties, required }))
)

/** A function tool with a name, a description and (sometimes) a parameter schema. */
export const validChatTool: fc.Arbitrary<NonNullable<ChatRequest["tools"]>[number]> = fc.record({
  type: fc.constant("function" as const),
  function: fc.record(
    {
      name: nonEmptyName,
      description: text,
      parameters: functionParameters
    },
    { requiredKeys: ["name", "description"] }
  )
})

const metadataKey = fc.constantFrom("author", "date", "url", "title")

/**
 * A document's metadata in either shape: a `[{key, value}]` list (each key once) or a `{key: value}` map.
 */
export const validMetadata: fc.Arbitrary<NonNullable<NonNullable<ChatRequest["documents"]>[number]["metadata"]>> = fc
  .oneof(
    fc.uniqueArray(fc.record({ key: metadataKey, value: text }), { maxLength: 3, selector: (entry) => entry.key }),
    fc.dictionary(metadataKey, text, { maxKeys: 3 })
  )

/** A document with content and (sometimes) an id and metadata. */
export const validDocument: fc.Arbitrary<NonNullable<ChatRequest["documents"]>[number]> = fc.record({
  id: nonEmptyName,
  content: text,
  metadata: validMetadata
}, { requiredKeys: ["content"] })

/** A stop sequence within the 64K limit; sometimes long, sometimes with newlines. */
export const validStopSequence: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: text },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 65536 }).map((length) => "\n".padEnd(length, "x")) }
)

/**
 * The fields of a chat request each within their own rule, before the rules that relate several fields
 * (n, temperature, stream, tools) are applied.
 */
const chatFields = fc.record({
  model: fc.oneof(fc.constantFrom(...chatModels), nonEmptyName),
  messages: validChatMessages,
  tools: fc.array(validChatTool, { maxLength: 3 }),
  documents: fc.array(validDocument, { maxLength: 3 }),
  response_format: fc.record({ type: fc.constantFrom("text" as const, "json_object" as const) }),
  max_tokens: fc.integer({ min: 1, max: 4096 }),
  temperature: fc.oneof(fc.constantFrom(0, 0.4, 2), fc.double({ min: 0, max: 2, noNaN: true })),
  top_p: fc.oneof(fc.constantFrom(0, 0.01, 1), fc.double({ min: 0, max: 1, noNaN: true })),
  stop: fc.oneof(validStopSequence, fc.array(validStopSequence, { maxLength: 4 })),
  n: fc.integer({ min: 1, max: 16 }),
  stream: fc.boolean()
}, { requiredKeys: ["model", "messages"] })

/**
 * A chat completion request that keeps every rule of the interface: a streamed request has n = 1 and no
 * tools, and n > 1 never comes with temperature 0.
 */
export const validChatRequest: fc.Arbitrary<ChatRequest> = chatFields.map((fields) => {
  const request: { -readonly [K in keyof ChatRequest]: ChatRequest[K] } = { ...fields }
  if (request.stream === true) {
    delete request.tools
    if (request.n !== undefined) request.n = 1
  }
  if ((request.n ?? 1) > 1 && request.temperature === 0) request.temperature = 0.7
  return request
})

/** A valid chat request that is not streamed (so it may carry tools and n > 1). */
export const validUnstreamedChatRequest: fc.Arbitrary<ChatRequest> = validChatRequest.map((request) => {
  const { stream: _stream, ...rest } = request
  return rest
})

// ---------------------------------------------------------------------------------------------------------
// runs
// ---------------------------------------------------------------------------------------------------------

type RunTool = NonNullable<RunRequest["tools"]>[number]

/** Turns alternating between user and assistant, starting with either. */
export const validRunMessages: fc.Arbitrary<NonNullable<Exclude<RunRequest["input"], string>>> = fc.tuple(
  fc.constantFrom("user" as const, "assistant" as const),
  fc.array(text, { minLength: 1, maxLength: 6 })
).map(([first, contents]) =>
  contents.map((content, i) => ({
    role: (i % 2 === 0) === (first === "user") ? "user" as const : "assistant" as const,
    content
  }))
)

/** A run's input: an instruction string or alternating turns. */
export const validRunInput: fc.Arbitrary<NonNullable<RunRequest["input"]>> = fc.oneof(text, validRunMessages)

/** A requirement with a name and a description of at most 128 words. */
export const validRequirement: fc.Arbitrary<NonNullable<RunRequest["requirements"]>[number]> = fc.record({
  name: nonEmptyName,
  description: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 20 }).chain(wordsText) },
    { weight: 1, arbitrary: fc.constant(128).chain(wordsText) }
  ),
  is_mandatory: fc.boolean()
}, { requiredKeys: ["name", "description"] })

const headers = fc.dictionary(fc.constantFrom("Authorization", "X-Api-Key", "Content-Type"), text, { maxKeys: 2 })

/** An mcp tool with the given (unique) label. */
export const validMcpTool = (serverLabel: string): fc.Arbitrary<RunTool> =>
  fc.record({
    type: fc.constant("mcp" as const),
    server_label: fc.constant(serverLabel),
    server_url: absoluteUrl,
    headers,
    allowed_tools: fc.array(nonEmptyName, { maxLength: 3 })
  }, { requiredKeys: ["type", "server_label", "server_url"] })

/** An http tool: a function and an endpoint URL. */
export const validHttpTool: fc.Arbitrary<RunTool> = fc.record({
  type: fc.constant("http" as const),
  function: fc.record({
    name: nonEmptyName,
    description: text,
    parameters: functionParameters
  }, { requiredKeys: [] }),
  endpoint: fc.record({ url: absoluteUrl, headers }, { requiredKeys: ["url"] })
})

/** The filters and retrieval options of a file search, each left out or valid. */
const fileSearchFilters = {
  labels: fc.array(nonEmptyName, { maxLength: 3 }),
  labels_filter_mode: fc.constantFrom("AND" as const, "OR" as const),
  labels_filter: fc.dictionary(nonEmptyName, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
  file_ids: fc.array(fc.uuid(), { maxLength: 3 }),
  path: fc.string({ maxLength: 12 }),
  retrieval_strategy: fc.constantFrom(
    "segments" as const,
    "default" as const,
    "add_neighbors" as const,
    "full_doc" as const
  ),
  max_neighbors: fc.nat({ max: 20 }),
  retrieval_similarity_threshold: fc.double({ min: 0, max: 1, noNaN: true })
}

/** File search filters. */
export const validFileSearchTool: fc.Arbitrary<RunTool> = fc.record({
  type: fc.constant("file_search" as const),
  ...fileSearchFilters
}, { requiredKeys: ["type"] })

/** Web search filters in the accepted shapes. */
export const validWebSearchTool: fc.Arbitrary<RunTool> = fc.record({
  type: fc.constant("web_search" as const),
  urls: fc.array(webSearchUrl, { maxLength: 4 })
}, { requiredKeys: ["type"] })

/** The tools of a run: any mix of the four kinds, every mcp label unique. */
export const validRunTools: fc.Arbitrary<ReadonlyArray<RunTool>> = fc.array(
  fc.constantFrom("mcp", "http", "file_search", "web_search"),
  { maxLength: 5 }
).chain((kinds) =>
  fc.tuple(...kinds.map((kind, index) =>
    kind === "mcp"
      ? nonEmptyName.chain((name) => validMcpTool(`${name}-${index}`))
      : kind === "http"
      ? validHttpTool
      : kind === "file_search"
      ? validFileSearchTool
      : validWebSearchTool
  ))
)

/** The legacy body shape: search filters under `tool_resources`. */
export const validToolResources: fc.Arbitrary<NonNullable<RunRequest["tool_resources"]>> = fc.record({
  file_search: fc.record(fileSearchFilters, { requiredKeys: [] }),
  web_search: fc.record({ urls: fc.array(webSearchUrl, { maxLength: 3 }) }, { requiredKeys: [] })
}, { requiredKeys: [] })

/** The nine response languages (the interface's table). */
export { responseLanguages }

/**
 * A JSON value as it crosses the wire: `fc.jsonValue` also gives `-0`, which JSON writes as `0`, so a
 * request compared with what a server received would differ in that one number.
 */
export const wireJsonValue = (constraints: fc.JsonSharedConstraints = {}): fc.Arbitrary<unknown> =>
  fc.jsonValue(constraints).map((value) => JSON.parse(JSON.stringify(value)) as unknown)

/** A JSON object, as `output_type`, `config_overrides` or a workflow's `additional_params`. */
const jsonObject: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  nonEmptyName,
  wireJsonValue({ maxDepth: 2 }),
  { maxKeys: 4 }
)

/** The switches of how a run works, each a boolean. */
const runOptions = {
  verbose: fc.boolean(),
  structured_rag_enabled: fc.boolean(),
  dynamic_planning_enabled: fc.boolean()
}

/** A run request that keeps every rule of the interface. */
export const validRunRequest: fc.Arbitrary<RunRequest> = fc.record({
  input: validRunInput,
  system_prompt: text,
  requirements: fc.array(validRequirement, { maxLength: 10 }),
  tools: validRunTools,
  models: fc.array(fc.oneof(fc.constantFrom(...runModels), nonEmptyName), { maxLength: 1 }),
  budget: fc.constantFrom("low" as const, "medium" as const, "high" as const),
  include: fc.subarray(["data_sources", "requirements_result"] as Array<"data_sources" | "requirements_result">),
  response_language: fc.option(fc.constantFrom(...responseLanguages, "unset" as const), { nil: null }),
  tool_resources: validToolResources,
  output_type: fc.oneof(fc.constant("json" as const), jsonObject),
  ...runOptions
}, { requiredKeys: [] })

// ---------------------------------------------------------------------------------------------------------
// assistants
// ---------------------------------------------------------------------------------------------------------

type AssistantRequirementInput = NonNullable<AssistantRunRequest["requirements"]>[number]

/** A requirement in the service's assistant shape: a title or a description, or both. */
export const validServiceRequirement: fc.Arbitrary<AssistantRequirementInput> = fc.record({
  id: nonEmptyName,
  title: text,
  description: fc.integer({ min: 0, max: 20 }).chain(wordsText),
  type: fc.constantFrom("mandatory", "optional", "Mandatory", "")
}, { requiredKeys: [] }).filter((requirement) =>
  (requirement.title ?? "") !== "" || (requirement.description ?? "") !== ""
)

/** Up to ten requirements of an assistant, in either shape. */
const validAssistantRequirements: fc.Arbitrary<ReadonlyArray<AssistantRequirementInput>> = fc.array(
  fc.oneof(validRequirement, validServiceRequirement),
  { maxLength: 10 }
)

const assistantIncludes = ["data_sources", "requirements_result", "requirements_result.metadata"] as const

/** The run settings a stored assistant has, and a call may override. */
const assistantSettings = {
  system_prompt: text,
  requirements: validAssistantRequirements,
  tools: validRunTools,
  models: fc.array(fc.oneof(fc.constantFrom(...runModels), nonEmptyName), { maxLength: 1 }),
  budget: fc.constantFrom("low" as const, "medium" as const, "high" as const),
  response_language: fc.constantFrom(...responseLanguages, "unset" as const)
}

/** A request to run a stored assistant that keeps every rule of the interface. */
export const validAssistantRunRequest: fc.Arbitrary<AssistantRunRequest> = fc.record({
  input: validRunMessages,
  output_type: fc.oneof(fc.constant("json" as const), jsonObject),
  include: fc.subarray([...assistantIncludes]),
  ...assistantSettings,
  ...runOptions
}, { requiredKeys: ["input"] })

/** A request to create an assistant that keeps every rule of the interface. */
export const validCreateAssistantRequest: fc.Arbitrary<CreateAssistantRequest> = fc.record({
  name: nonEmptyName,
  optimization: fc.constantFrom("cost", "latency"),
  assistant_type: fc.constantFrom("default" as const, "chat" as const, "maestro" as const),
  starter_questions: fc.array(fc.record({ title: text, prompt: text }), { maxLength: 3 }),
  description: text,
  avatar: text,
  ...assistantSettings,
  workflow_config: fc.record({ endpoint_url: absoluteUrl, headers, additional_params: jsonObject }, {
    requiredKeys: ["endpoint_url"]
  }),
  config_overrides: jsonObject
}, { requiredKeys: ["name"] })

// ---------------------------------------------------------------------------------------------------------
// extra fields
// ---------------------------------------------------------------------------------------------------------

/** Fields the interface does not list (a newer service may accept them); never a listed field name. */
export const extraFields = (known: ReadonlyArray<string>): fc.Arbitrary<Record<string, unknown>> =>
  fc.dictionary(
    fc.stringMatching(/^x_[a-z_]{1,12}$/).filter((key) => !known.includes(key)),
    wireJsonValue(),
    { minKeys: 1, maxKeys: 3 }
  )
