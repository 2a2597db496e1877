/**
 * Chat completions: `create` for a whole answer, `stream` for its chunks as they are generated,
 * `accumulate` to add chunks up to the completion they make, `textDeltas` for the text alone,
 * `reasoningDeltas` for the model's reasoning, and `runTools` for the tool loop. `createWithResponse` and
 * `streamWithResponse` give the answer's status, headers, request id and rate-limit figures with the
 * completion, or with the stream of its chunks (the stream opens in the caller's `Scope`).
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { tooLargeReason } from "studio-effect-core/bytes/sizeLimits"
import { CompletionAccumulator } from "studio-effect-core/chat/CompletionAccumulator"
import { firstChoiceText, type TextField } from "studio-effect-core/chat/deltas"
import * as SseEncoder from "studio-effect-core/sse/SseEncoder"
import { acceptChatRequest } from "studio-effect-core/validate/chatRequest"
import { endpoints } from "studio-effect-core/wire/endpoints"
import { ChatCompletion, type ChatCompletionChunk as Chunk, ChatRequest } from "./ChatSchema.js"
import { checkSizes, defaultMaxResponseSize } from "./internal/http/body.js"
import * as Operation from "./internal/operation/operation.js"
import {
  type RunToolsOptions,
  type ToolHandlers,
  toolLoop,
  type ToolLoopResult
} from "./internal/operation/toolLoop.js"
import { parseChunk } from "./internal/schema/chunk.js"
import { decodeCompletion } from "./internal/schema/completion.js"
import * as Bridge from "./internal/stream/bridge.js"
import type { StudioClient, WithResponse } from "./StudioClient.js"
import { DecodeError, type RequestError, type ToolCallError, type ValidationError } from "./StudioError.js"

const withoutStream = ({ stream: _stream, ...rest }: typeof ChatRequest.Type) => rest

const checkChatRequest = Operation.checkRequest(ChatRequest, acceptChatRequest)

const createOperation = Operation.json({
  endpoint: endpoints.chatCreate,
  check: checkChatRequest,
  body: withoutStream,
  response: ChatCompletion,
  decode: decodeCompletion
})

const streamOperation = Operation.stream({
  endpoint: endpoints.chatStream,
  check: (operation, request: ChatRequest) => checkChatRequest(operation, { ...request, stream: true }),
  body: (valid) => valid,
  parse: parseChunk
})

/**
 * Creates a chat completion. The request is checked against every rule of the interface first; a broken
 * rule fails with `ValidationError` and nothing is sent.
 *
 * @since 0.1.0
 * @category operations
 */
export const create: (request: ChatRequest) => Effect.Effect<ChatCompletion, RequestError, StudioClient> =
  createOperation

/**
 * `create`, with what the answer said about it: its status, headers, request id and rate-limit figures.
 *
 * @since 0.1.0
 * @category operations
 */
export const createWithResponse: (
  request: ChatRequest
) => Effect.Effect<WithResponse<ChatCompletion>, RequestError, StudioClient> = createOperation.withResponse

/**
 * Streams a chat completion as it is generated (sets `stream: true`). The stream ends at the service's
 * `[DONE]`; a body cut short fails with `TransportError`, a malformed event with `DecodeError`.
 *
 * @since 0.1.0
 * @category operations
 */
export const stream: (request: ChatRequest) => Stream.Stream<Chunk, RequestError, StudioClient> = streamOperation

/**
 * `stream`, with what the answer said when the stream opened: its status, headers, request id and
 * rate-limit figures, and the stream of its chunks as the `value`. The request is sent and the stream
 * opened (retries included) when the effect runs, in the caller's `Scope`: the chunks are read while the
 * scope is open, and closing it releases the connection (run it inside `Effect.scoped`, or with
 * `Stream.unwrap` when only the chunks go on). A refusal fails the effect itself, before any chunk.
 *
 * @since 1.0.0
 * @category operations
 */
export const streamWithResponse: (
  request: ChatRequest
) => Effect.Effect<WithResponse<Stream.Stream<Chunk, RequestError>>, RequestError, StudioClient | Scope.Scope> =
  streamOperation.withResponse

/**
 * The largest completion `accumulate` adds up when no `maxAccumulatedSize` is given: 32 MiB, the bound of a
 * non-streamed answer (`maxResponseSize`) when none is given.
 *
 * @since 0.1.0
 * @category streaming
 */
export const defaultMaxAccumulatedSize = defaultMaxResponseSize

/**
 * Options of `accumulate`.
 *
 * @since 0.1.0
 * @category streaming
 */
export interface AccumulateOptions {
  /**
   * The largest completion to add up, in characters of its text (its id, content, tool call ids, types,
   * names and arguments, and 64 for each choice and tool call): `defaultMaxAccumulatedSize` (32 MiB) when
   * not given. A stream that goes past it fails with `DecodeError` naming this option, and is released at
   * once.
   */
  readonly maxAccumulatedSize?: number | undefined
}

/**
 * Adds chunks up to the completion they make: content concatenated, tool-call arguments merged by index,
 * the last `finish_reason` and `usage` of each choice. The completion is bounded by `maxAccumulatedSize`
 * (32 MiB by default): a stream whose content goes past it fails with `DecodeError`, and its connection is
 * released, instead of growing without end. A bound that is not a whole number of at least 1 fails with
 * `ValidationError`.
 *
 * @since 0.1.0
 * @category streaming
 */
export const accumulate = <E, R>(
  self: Stream.Stream<Chunk, E, R>,
  options?: AccumulateOptions
): Effect.Effect<ChatCompletion, E | DecodeError | ValidationError, R> =>
  Effect.flatMap(checkSizes({ maxAccumulatedSize: options?.maxAccumulatedSize }), () => {
    const maxSize = options?.maxAccumulatedSize ?? defaultMaxAccumulatedSize
    const accumulator = new CompletionAccumulator()
    return Stream.runForEach(self, (chunk) =>
      Effect.suspend(() => {
        accumulator.add(chunk)
        return accumulator.size > maxSize ? Effect.fail(tooLarge(maxSize)) : Effect.void
      })).pipe(Effect.map((): ChatCompletion => accumulator.completion()))
  })

/** The error of a completion past `maxAccumulatedSize`: it names the option, and what to do. */
const tooLarge = (maxSize: number) =>
  new DecodeError({
    operation: "chat.accumulate",
    reason: tooLargeReason("maxAccumulatedSize", maxSize)
  })

/**
 * The text of the first choice as it arrives, without empty pieces.
 *
 * @since 0.1.0
 * @category streaming
 */
export const textDeltas = <E, R>(self: Stream.Stream<Chunk, E, R>): Stream.Stream<string, E, R> =>
  deltasOf(self, "content")

/**
 * The reasoning of the first choice as it arrives (`reasoning_content`, which a model that shows its
 * reasoning streams before its answer), without empty pieces.
 *
 * @since 1.1.0
 * @category streaming
 */
export const reasoningDeltas = <E, R>(self: Stream.Stream<Chunk, E, R>): Stream.Stream<string, E, R> =>
  deltasOf(self, "reasoning_content")

const deltasOf = <E, R>(self: Stream.Stream<Chunk, E, R>, field: TextField): Stream.Stream<string, E, R> =>
  Stream.filterMap(self, (chunk) => {
    const text = firstChoiceText(chunk, field)
    return text === undefined ? Result.fail(chunk) : Result.succeed(text)
  })

/**
 * A stream (of chunks from `stream`, or of text from `textDeltas`) as an `AsyncIterable`, for code outside
 * Effect: `for await (const text of Chat.toAsyncIterable(Chat.textDeltas(Chat.stream(request)), runtime))`.
 * `runtime` provides the `StudioClient` (a `ManagedRuntime` of its layer, or `yield* Effect.context()`).
 * The stream is pulled once per network read, and the elements that read gave are handed out from it; a
 * failure is thrown as its `StudioError`; leaving the loop early (`break`, `return`, a throw) releases the
 * connection.
 *
 * @since 0.1.0
 * @category streaming
 */
export const toAsyncIterable: {
  <R>(runtime: Bridge.AnyRuntime<R>): <A, E>(self: Stream.Stream<A, E, R>) => AsyncIterable<A>
  <A, E, R>(self: Stream.Stream<A, E, R>, runtime: Bridge.AnyRuntime<R>): AsyncIterable<A>
} = dual(2, Bridge.toAsyncIterable)

/**
 * A stream (of chunks, or of text) as a web `ReadableStream`, for code outside Effect. Each network read
 * becomes one pull of the `ReadableStream`; a failure errors it with its `StudioError`; cancelling it
 * releases the connection.
 *
 * @since 0.1.0
 * @category streaming
 */
export const toReadableStream: {
  <R>(runtime: Bridge.AnyRuntime<R>): <A, E>(self: Stream.Stream<A, E, R>) => ReadableStream<A>
  <A, E, R>(self: Stream.Stream<A, E, R>, runtime: Bridge.AnyRuntime<R>): ReadableStream<A>
} = dual(2, Bridge.toReadableStream)

/**
 * A chat stream as the bytes of server-sent events, in the service's own format, to forward to a browser
 * (the body of a `Response` with `Content-Type: text/event-stream`): `data: <chunk as JSON>` per chunk, one
 * write per network read, and `data: [DONE]` at the end. When the stream fails, the body ends with an
 * `event: error` whose data is `{"error":{"type":<the error's tag>,"message":...}}` and no `[DONE]`, so
 * the browser can tell a failure from the end; the message shows each address only by its path, so the
 * service's address does not reach the browser. Cancelling it (the browser went away) releases the
 * connection to the service.
 *
 * @since 0.1.0
 * @category streaming
 */
export const toEventStream: {
  <R>(runtime: Bridge.AnyRuntime<R>): <E>(self: Stream.Stream<Chunk, E, R>) => ReadableStream<Uint8Array>
  <E, R>(self: Stream.Stream<Chunk, E, R>, runtime: Bridge.AnyRuntime<R>): ReadableStream<Uint8Array>
} = dual(
  2,
  <E, R>(self: Stream.Stream<Chunk, E, R>, runtime: Bridge.AnyRuntime<R>): ReadableStream<Uint8Array> =>
    Bridge.toReadableStream(eventStream(self), runtime)
)

/**
 * The bytes `toEventStream` forwards, as an Effect `Stream`, for Effect's own HTTP server
 * (`HttpServerResponse.stream`): one write per network read, then `data: [DONE]`, or the `event: error` of
 * any failure but an interruption (the browser went away: nothing is written any more).
 *
 * @since 1.1.0
 * @category streaming
 */
export const eventStream = <E, R>(self: Stream.Stream<Chunk, E, R>): Stream.Stream<Uint8Array, E, R> =>
  self.pipe(
    Stream.mapArray((chunks) => {
      return [SseEncoder.events(chunks)]
    }),
    Stream.concat(Stream.succeed(SseEncoder.done)),
    Stream.catchCauseIf(
      (cause) => !Cause.hasInterruptsOnly(cause),
      (cause) => Stream.sync(() => SseEncoder.errorEvent(Cause.squash(cause)))
    )
  )

/**
 * The tool loop: creates the completion of `request`, runs the handler of each tool call of its first
 * choice (concurrently, at most `concurrency` at once), appends the assistant message as the service
 * returned it and one `tool` message per call, and creates the next completion, until an answer without
 * tool calls or `maxRounds` completions. It returns the last completion and the whole conversation.
 *
 * Outcomes: arguments that are not JSON fail with `ToolCallError` (`InvalidArguments`), a tool with no
 * handler with `ToolCallError` (`UnknownTool`), an answer with more than `maxCallsPerRound` calls with
 * `TooManyCalls`, an id named twice (in one answer or after an earlier round) with `RepeatedCallId`, each
 * before any handler of that round runs; a handler's
 * failure fails the loop with that error, unchanged (a handler that should let the model recover returns
 * the error as its answer instead); the round limit ends with `finished: false`.
 *
 * @since 0.1.0
 * @category tools
 */
export const runTools = <E = never, R = never>(
  request: ChatRequest,
  handlers: ToolHandlers<E, R>,
  options?: RunToolsOptions
): Effect.Effect<ToolLoopResult, RequestError | ToolCallError | E, StudioClient | R> =>
  toolLoop({ create: (request) => create(request), runCall: (_call, answer) => answer }, request, handlers, options)

export {
  /**
   * A tool call `runTools` cannot run: arguments that are not JSON, or a tool with no handler.
   *
   * @since 0.1.0
   * @category errors
   */
  ToolCallError
} from "./StudioError.js"

export type {
  /**
   * Options of `runTools`: `maxRounds` (default 8, at most 100), `concurrency` (default 4, at most 64) and
   * `maxCallsPerRound` (default 16, at most 128).
   *
   * @since 0.1.0
   * @category tools
   */
  RunToolsOptions,
  /**
   * The handler of each tool, by function name: an `Effect` from the parsed arguments to the answer.
   *
   * @since 0.1.0
   * @category tools
   */
  ToolHandlers,
  /**
   * What `runTools` ends with: the last completion, the whole conversation, the rounds, and whether it
   * finished.
   *
   * @since 0.1.0
   * @category tools
   */
  ToolLoopResult
} from "./internal/operation/toolLoop.js"
