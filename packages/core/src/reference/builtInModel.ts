/**
 * The model behind the reference service: what a model is given and what it replies, the tokens the
 * service counts, a deterministic, seedable built-in model that works only from the conversation, and
 * scripts of replies that let a test make the service say what it needs.
 *
 * @since 0.1.0
 */
import * as CodePoints from "../text/codePoints.js"
import { type ChatRequest, defaultTemperature } from "../wire/chat.js"
import { hostedModelOf } from "../wire/models.js"
import { answerSchemaOf } from "./answerSchema.js"
import * as JsonSchemaValue from "./jsonSchemaValue.js"
import { detect, type Language, phrases } from "./language.js"
import { generator, hash } from "./random.js"

/**
 * A chat request as the model sees it, after validation.
 *
 * @since 0.1.0
 * @category models
 */
export type ModelRequest = ChatRequest

/**
 * What the service tells the model besides the request.
 *
 * @since 0.1.0
 * @category models
 */
export interface ModelContext {
  /** Which of the `n` choices is being generated, from 0. */
  readonly index: number
  /** The service's seed: the same request and seed give the same answer. */
  readonly seed: number
  /** `chat` for a chat completion, `run` for the draft of an orchestration run. */
  readonly purpose: "chat" | "run"
  /** The language a run must answer in, when it has one. */
  readonly language?: Language | undefined
}

/**
 * A tool call the model makes; `arguments` is a value (sent as its JSON) or a JSON string.
 *
 * @since 0.1.0
 * @category models
 */
export interface ModelToolCall {
  readonly name: string
  readonly arguments: unknown
}

/**
 * The model's answer: text, tool calls, or both. A plain string is text.
 *
 * @since 0.1.0
 * @category models
 */
export type Reply = string | {
  readonly content?: string | undefined
  readonly toolCalls?: ReadonlyArray<ModelToolCall> | undefined
  /** The model's reasoning before its answer, sent as `reasoning_content` (streamed before the content). */
  readonly reasoning?: string | undefined
}

/**
 * A model that answers at once: a function from a request to a reply. The service applies `stop`,
 * `max_tokens` and streaming to whatever it returns, so a scripted answer is still cut and counted as the
 * parameters say.
 *
 * @since 0.1.0
 * @category models
 */
export type PureModel = (request: ModelRequest, context: ModelContext) => Reply

// ---------------------------------------------------------------------------------------------------------
// tokens
// ---------------------------------------------------------------------------------------------------------

/**
 * Splits text into the tokens the service counts and streams: each word with the whitespace before it.
 * Joining the tokens gives back the text.
 *
 * @since 0.1.0
 * @category tokens
 */
export const tokenize = (text: string): ReadonlyArray<string> => text.match(/\s*\S+|\s+/gu) ?? []

/**
 * How many tokens a text counts for.
 *
 * @since 0.1.0
 * @category tokens
 */
export const countTokens = (text: string): number => tokenize(text).length

// ---------------------------------------------------------------------------------------------------------
// the built-in model
// ---------------------------------------------------------------------------------------------------------

/** Sixteen openings, each with its own first word, so that `n` choices always differ. */
const openings = [
  "Going by",
  "Based on",
  "From",
  "Reading",
  "Judging by",
  "Considering",
  "Reviewing",
  "Following",
  "Per",
  "Looking at",
  "Taking",
  "After reading",
  "With",
  "Given",
  "Checking",
  "Weighing"
] as const

type Message = ModelRequest["messages"][number]

const lastOf = <A>(items: ReadonlyArray<A>, predicate: (item: A) => boolean): A | undefined => {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i]!)) return items[i]
  return undefined
}

/** The text on one line, in at most `max` code points. */
const oneLine = (text: string, max = 240): string => CodePoints.clip(text.replace(/\s+/gu, " ").trim(), max)

const wordsOf = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])

const overlap = (a: Set<string>, b: Set<string>): number => {
  let n = 0
  for (const word of a) if (b.has(word)) n++
  return n
}

/** The sentence of the documents that shares most words with the question, and where it came from. */
const bestDocumentSentence = (request: ModelRequest, question: string) => {
  const wanted = wordsOf(question)
  let best: { sentence: string; source: string | undefined; score: number } | undefined
  for (const document of request.documents ?? []) {
    const source = Object.entries(document.metadata ?? {}).find(([key]) =>
      /^(url|title|source|author|name)$/iu.test(key)
    )
      ?.[1]
    for (const sentence of document.content.split(/(?<=[.!?])\s+|\n+/u)) {
      const trimmed = sentence.trim()
      if (trimmed === "") continue
      const score = overlap(wanted, wordsOf(trimmed))
      if (best === undefined || score > best.score) best = { sentence: trimmed, source, score }
    }
  }
  return best
}

/** The tool whose name and description share most words with the request; the first on a tie. */
const chooseTool = (tools: NonNullable<ModelRequest["tools"]>, text: string) => {
  const wanted = wordsOf(text)
  let best = tools[0]!
  let bestScore = -1
  for (const tool of tools) {
    const score = overlap(wanted, wordsOf(`${tool.function.name.replace(/[_-]/gu, " ")} ${tool.function.description}`))
    if (score > bestScore) {
      best = tool
      bestScore = score
    }
  }
  return best
}

const toolNameOf = (messages: ReadonlyArray<Message>, callId: string): string | undefined => {
  for (const message of messages) {
    if (message.role !== "assistant") continue
    const call = message.tool_calls?.find((c) => c.id === callId)
    if (call !== undefined) return call.function?.name
  }
  return undefined
}

/** The text the built-in model writes for a request, before JSON mode, `stop` and `max_tokens`. */
/**
 * What the built-in model reads from a request, once per request: the `n` choices of one request share it,
 * so a large request costs its size once, not `n` times.
 */
const readings = new WeakMap<ModelRequest, {
  readonly question: string
  readonly messagesJson: string
  readonly found: ReturnType<typeof bestDocumentSentence>
}>()

const read = (request: ModelRequest) => {
  const known = readings.get(request)
  if (known !== undefined) return known
  const lastUser = lastOf(request.messages, (m) => m.role === "user")
  const question = lastUser === undefined ? "" : oneLine(lastUser.content ?? "")
  const reading = {
    question,
    messagesJson: JSON.stringify(request.messages),
    found: bestDocumentSentence(request, question)
  }
  readings.set(request, reading)
  return reading
}

const builtInText = (request: ModelRequest, context: ModelContext): string => {
  const messages = request.messages
  const last = messages[messages.length - 1]
  const { found, messagesJson, question } = read(request)
  const language = context.language ?? (context.purpose === "run" ? detect(question) : undefined) ?? "english"
  const text = phrases[language]
  const parts: Array<string> = []
  if (context.purpose === "chat" && language === "english") {
    const temperature = request.temperature ?? defaultTemperature
    const spread = temperature === 0 ? 1 : Math.max(1, Math.round((request.top_p ?? 1) * openings.length))
    const random = generator(hash(messagesJson, context.seed))
    const start = temperature === 0 ? 0 : Math.floor(random() * spread)
    const opening = openings[(start + context.index) % openings.length]!
    parts.push(
      question === ""
        ? `${opening} the conversation so far, there is no request to answer.`
        : `${opening} the conversation so far, you asked: "${question}".`
    )
  } else {
    parts.push(question === "" ? text.empty : text.asked(question))
  }
  if (last?.role === "tool") {
    const name = toolNameOf(messages, last.tool_call_id) ?? "tool"
    parts.push(`The ${name} tool returned: ${oneLine(last.content, 400)}.`)
  }
  if (found !== undefined) {
    parts.push(
      `The documents provided say: "${oneLine(found.sentence, 300)}"${
        found.source === undefined ? "" : ` (source: ${found.source})`
      }.`
    )
  }
  parts.push(text.honesty)
  return parts.join(" ")
}

/** The JSON-mode answer: a value of the schema the prompt gives, otherwise `{"answer": text}`. */
const jsonAnswer = (request: ModelRequest, context: ModelContext, text: string): string => {
  const schema = answerSchemaOf(request.messages)
  // a schema nested too deeply is not followed (the service refuses such a request before the model runs)
  if (schema._tag !== "Schema") return JSON.stringify({ answer: text })
  const question = lastOf(request.messages, (m) => m.role === "user")?.content ?? ""
  return JSON.stringify(
    JsonSchemaValue.generate(schema.schema, { text: question, random: generator(hash(question, context.seed)) }) ?? null
  )
}

/**
 * The built-in model. It answers from the conversation alone and never pretends to know facts: it restates
 * the request, reports the output of the tool it was answered with, quotes the document sentence closest
 * to the question, and says what it is. With tools and a user turn last, it calls the tool whose name and
 * description best match the request, with arguments built from the function's parameter schema (values
 * taken from the request where it can: quoted text, names, numbers, enum options it mentions). In JSON
 * mode it answers `{"answer": "..."}`, or, when a system message ends with a JSON Schema after
 * "JSON Schema:", a value of that schema built the same way as tool arguments (within the same fixed
 * limits, see `JsonSchemaValue`). With temperature 0 it is fully deterministic; otherwise the seed,
 * `temperature`, `top_p` and the choice index pick among sixteen openings, so `n` choices always differ.
 *
 * @since 0.1.0
 * @category models
 */
export const builtIn: PureModel = (request, context) => {
  const last = request.messages[request.messages.length - 1]
  const tools = request.tools ?? []
  const reasons = context.purpose === "chat" && reasoningModels.includes(hostedModelOf(request.model) ?? request.model)
  if (tools.length > 0 && last?.role === "user") {
    const tool = chooseTool(tools, last.content)
    const value = JsonSchemaValue.generate(tool.function.parameters ?? {}, {
      text: last.content,
      random: generator(hash(last.content, context.seed))
    })
    // a function's arguments are an object, whatever its parameter schema says
    const args = typeof value === "object" && value !== null && !Array.isArray(value) ? value : {}
    const toolCalls = [{ name: tool.function.name, arguments: args }]
    return reasons ? { toolCalls, reasoning: reasoningOf(request, `the ${tool.function.name} tool can answer it`) } : {
      toolCalls
    }
  }
  const text = builtInText(request, context)
  const content = request.response_format?.type === "json_object" ? jsonAnswer(request, context, text) : text
  if (!reasons) return content
  const answered = last?.role === "tool" ? toolNameOf(request.messages, last.tool_call_id) : undefined
  return {
    content,
    reasoning: reasoningOf(
      request,
      answered === undefined ? "I restate it and say what I can know" : `the ${answered} tool has answered it`
    )
  }
}

/**
 * The models that show their reasoning (`reasoning_content`) before they answer a chat: the larger one,
 * by either of its names (`serviceModelIds`).
 *
 * @since 1.1.0
 * @category models
 */
export const reasoningModels: ReadonlyArray<string> = ["fpmodel-large"]

/** The built-in model's reasoning: what it was asked, and how it answers. */
const reasoningOf = (request: ModelRequest, how: string): string => {
  const { question } = read(request)
  const asked = question === "" ? "There is no request to answer" : `The request is "${oneLine(question, 200)}"`
  return `${asked}; ${how}.`
}

/**
 * A model that gives `replies` in order, one per generated choice (or run), then answers with `fallback`,
 * whatever it answers with. Each service made with a script keeps its own place in it.
 *
 * @since 0.1.0
 * @category models
 */
export const script = <A>(
  replies: ReadonlyArray<Reply>,
  fallback: (request: ModelRequest, context: ModelContext) => A
): (request: ModelRequest, context: ModelContext) => Reply | A => {
  let next = 0
  return (request, context) => next < replies.length ? replies[next++]! : fallback(request, context)
}
