/**
 * The SDK for code that does not use Effect: `new Studio()` gives every operation as a function returning a
 * `Promise` (streams as an `AsyncIterable`, the tool loop as `chat.runTools` with plain async handlers), run by
 * one `ManagedRuntime` that `close()` releases. A call rejects with the same tagged error classes the Effect
 * API fails with (`_tag`, `status`, `requestId`, `instanceof`; outside Effect, `retryAfterMs` and `headers`
 * give the delay asked for and the answer's headers as plain values), and stops when its `AbortSignal`
 * aborts, rejecting with the signal's reason. As in openai-node, a call of one request returns a
 * `ResponsePromise`, a stream a `ResponseStream`: each also offers `withResponse()`, which resolves with
 * `{ data, response, request_id }` (`response` being the answer's status, headers, request id and rate-limit
 * figures), and the promise `asResponse()`, the metadata alone.
 *
 * @since 1.0.0
 */
import * as Cause from "effect/Cause"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import type * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { ClientClosed } from "studio-effect-core/failure/ClientClosed"
import { callSignal, closedIterable, untilAborted } from "studio-effect-core/platform/cancellation"
import { ResponsePromise, ResponseStream } from "studio-effect-core/platform/responsePromise"
import * as Assistants from "../Assistants.js"
import type {
  Assistant,
  AssistantList,
  AssistantRunRequest,
  CreateAssistantRequest,
  DeletedAssistant,
  ModifyAssistantRequest
} from "../AssistantSchema.js"
import * as Batches from "../Batches.js"
import type { Batch, BatchList, BatchResults, BatchResultsRequest, ListBatchesRequest } from "../BatchSchema.js"
import * as Chat from "../Chat.js"
import type { ChatCompletion, ChatCompletionChunk, ChatRequest, ToolCall } from "../ChatSchema.js"
import * as Library from "../Library.js"
import type {
  BatchStatus,
  LibraryFile,
  LibrarySearchRequest,
  LibrarySearchResponse,
  ListFilesRequest,
  ParsedFile,
  UpdateFileRequest,
  UploadedFile
} from "../LibrarySchema.js"
import * as Maestro from "../Maestro.js"
import type { MaestroRun, RunRequest } from "../MaestroSchema.js"
import * as Models from "../Models.js"
import type { ModelList } from "../ModelSchema.js"
import type { ReferenceOptions } from "../reference/app.js"
import * as StudioClient from "../StudioClient.js"

export { ClientClosed } from "studio-effect-core/failure/ClientClosed"
export {
  /**
   * What `withResponse()` resolves with: the value as `data`, the answer's metadata as `response`, and its
   * `request_id`.
   */
  type DataWithResponse,
  /** The promise every single-request call returns: awaited, its value; `withResponse()`, with metadata. */
  ResponsePromise,
  /** The iterable a stream returns: iterated, its elements; `withResponse()`, opened with its metadata. */
  ResponseStream
} from "studio-effect-core/platform/responsePromise"
export type {
  /** An answer's status, headers, request id and rate-limit figures. */
  ResponseMetadata
} from "studio-effect-core/wire/responseMetadata"
export type {
  /**
   * Options of `chat.runTools`: `maxRounds` (default 8, at most 100), `concurrency` (default 4, at most 64),
   * `maxCallsPerRound` (default 16, at most 128).
   */
  RunToolsOptions,
  /**
   * What `chat.runTools` resolves with: the last completion, the whole conversation, the rounds, and whether
   * it finished.
   */
  ToolLoopResult
} from "../Chat.js"
export * from "../StudioError.js"

/**
 * What a tool's handler is given besides the call's arguments: a signal that aborts when the loop stops
 * (its own `signal`, `close()`, or another handler of the round failing), and the call as the model made it.
 *
 * @since 1.0.0
 * @category tools
 */
export interface ToolCallContext {
  readonly signal: AbortSignal
  readonly call: ToolCall
}

/**
 * The handler of each tool of `chat.runTools`, by function name: a plain (async) function from the call's
 * parsed arguments (the JSON of `function.arguments`; empty arguments are `{}`) to the tool's answer. A
 * string answer is sent as it is, any other value as its JSON; a handler that throws (or rejects) ends the
 * loop with what it threw.
 *
 * @since 1.0.0
 * @category tools
 */
export type ToolHandlers = {
  readonly [name: string]: (args: unknown, context: ToolCallContext) => unknown
}

/**
 * Options of `new Studio()`: those of `StudioClient.layerConfig`, with the key and the base URL read from
 * `STUDIO_API_KEY` and `STUDIO_BASE_URL` when not given, and the transport (`FetchHttpClient.layer` by
 * default) as a layer.
 *
 * @since 1.0.0
 * @category models
 */
export interface StudioOptions extends Omit<StudioClient.ConfigOptions, "apiKey" | "baseUrl"> {
  /** The key, as text or `Redacted`; `STUDIO_API_KEY` from the environment when not given. */
  readonly apiKey?: string | Redacted.Redacted | undefined
  /** The service's address; `STUDIO_BASE_URL` from the environment, then `StudioClient.defaultBaseUrl`. */
  readonly baseUrl?: string | undefined
  /** The transport: `FetchHttpClient.layer` when not given. */
  readonly httpClient?: Layer.Layer<HttpClient.HttpClient> | undefined
  /**
   * A ready client instead (for example `Reference.layerClient()`, or `StudioClient.layer` over another
   * transport); the other options are then not read.
   */
  readonly client?: Layer.Layer<StudioClient.StudioClient, unknown> | undefined
}

/**
 * Options of one call: an `AbortSignal` that stops it, and the settings that change for this call.
 *
 * @since 1.0.0
 * @category models
 */
export interface CallOptions {
  readonly signal?: AbortSignal | undefined
  readonly requestOptions?: StudioClient.RequestOptions | undefined
}

/**
 * The client of the Studio service for code that does not use Effect.
 *
 * @since 1.0.0
 * @category models
 */
export class Studio {
  /**
   * A client of a fresh reference service embedded in memory: no key, no network.
   */
  static reference(options: ReferenceOptions = {}): Studio {
    return new Studio({
      client: Layer.unwrap(
        Effect.map(Effect.promise(() => import("../reference/index.js")), (_) => _.layerClient(options))
      )
    })
  }

  private readonly runtime: ManagedRuntime.ManagedRuntime<StudioClient.StudioClient, unknown>
  /** Aborted by `close()`: every call and stream in flight ends with `ClientClosed`, and later ones too. */
  private readonly closing = new AbortController()

  constructor(options: StudioOptions = {}) {
    this.runtime = ManagedRuntime.make(options.client ?? clientLayer(options))
  }

  readonly chat = {
    /** A chat completion. */
    create: (request: ChatRequest, options?: CallOptions): ResponsePromise<ChatCompletion> =>
      this.respond(Chat.createWithResponse(request), options),
    /** A streamed chat completion, chunk by chunk. */
    stream: (request: ChatRequest, options?: CallOptions): ResponseStream<ChatCompletionChunk> =>
      this.respondStream(Chat.stream(request), Chat.streamWithResponse(request), options),
    /** A streamed chat completion's text, as it arrives. */
    streamText: (request: ChatRequest, options?: CallOptions): ResponseStream<string> =>
      this.respondStream(
        Chat.textDeltas(Chat.stream(request)),
        Effect.map(Chat.streamWithResponse(request), (answer) => ({ ...answer, value: Chat.textDeltas(answer.value) })),
        options
      ),
    /**
     * The tool loop of `Chat.runTools`, with the same rounds, bounds and outcomes: creates the completion,
     * runs the handler of each tool call, sends the answers back, until an answer without tool calls or
     * `maxRounds` completions. Rejects with `ToolCallError` for a call it cannot run (before any handler of
     * that round runs), and with a handler's own error, unchanged, when one throws.
     */
    runTools: (
      request: ChatRequest,
      handlers: ToolHandlers,
      options?: CallOptions & Chat.RunToolsOptions
    ): Promise<Chat.ToolLoopResult> =>
      this.run(
        Chat.runTools(request, effectHandlers(handlers), {
          maxRounds: options?.maxRounds,
          concurrency: options?.concurrency,
          maxCallsPerRound: options?.maxCallsPerRound
        }),
        options
      )
  }

  readonly maestro = {
    /** Starts a run; it may still be in progress (see `createAndPoll`). */
    create: (request: RunRequest, options?: CallOptions): ResponsePromise<MaestroRun> =>
      this.respond(Maestro.createWithResponse(request), options),
    /** A run's current state. */
    retrieve: (runId: string, options?: CallOptions): ResponsePromise<MaestroRun> =>
      this.respond(Maestro.retrieveWithResponse(runId), options),
    /** Polls a run until it is terminal: `failed` rejects with `RunFailed`, the deadline with `PollTimeout`. */
    poll: (run: string | MaestroRun, options?: CallOptions & Maestro.PollOptions): Promise<MaestroRun> =>
      this.run(Maestro.poll(run, options), options),
    /** Starts a run and polls it until it is terminal. */
    createAndPoll: (request: RunRequest, options?: CallOptions & Maestro.PollOptions): Promise<MaestroRun> =>
      this.run(Maestro.createAndPoll(request, options), options)
  }

  readonly assistants = {
    create: (request: CreateAssistantRequest, options?: CallOptions): ResponsePromise<Assistant> =>
      this.respond(Assistants.createWithResponse(request), options),
    retrieve: (assistantId: string, options?: CallOptions): ResponsePromise<Assistant> =>
      this.respond(Assistants.retrieveWithResponse(assistantId), options),
    list: (listOptions?: Assistants.ListOptions, options?: CallOptions): ResponsePromise<AssistantList> =>
      this.respond(Assistants.listWithResponse(listOptions), options),
    update: (
      assistantId: string,
      request: ModifyAssistantRequest,
      options?: CallOptions
    ): ResponsePromise<Assistant> => this.respond(Assistants.updateWithResponse(assistantId, request), options),
    delete: (assistantId: string, options?: CallOptions): ResponsePromise<DeletedAssistant> =>
      this.respond(Assistants.deleteWithResponse(assistantId), options),
    /** Runs a stored assistant; the run may still be in progress (see `runAndPoll`). */
    run: (
      assistantId: string,
      request: AssistantRunRequest,
      options?: CallOptions & Assistants.RunOptions
    ): ResponsePromise<MaestroRun> => this.respond(Assistants.runWithResponse(assistantId, request, options), options),
    /** Runs a stored assistant and polls the run until it is terminal. */
    runAndPoll: (
      assistantId: string,
      request: AssistantRunRequest,
      options?: CallOptions & Assistants.RunAndPollOptions
    ): Promise<MaestroRun> => this.run(Assistants.runAndPoll(assistantId, request, options), options)
  }

  readonly models = {
    /** The models the service offers. */
    list: (options?: CallOptions): ResponsePromise<ModelList> => this.respond(Models.listWithResponse(), options)
  }

  readonly library = {
    /**
     * Uploads a file's bytes or a `Blob` (a `File` gives its name), within `maxUploadSize`; or a stream of
     * its bytes (a Node `Readable`, any `AsyncIterable` of bytes, or a web `ReadableStream`), sent as it
     * is read, never held whole, and refused with `ValidationError` once it passes `maxUploadSize`.
     */
    upload: (
      file: Uint8Array | Blob | AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
      uploadOptions?: Library.UploadOptions,
      options?: CallOptions
    ): ResponsePromise<UploadedFile> =>
      this.respond(
        file instanceof Uint8Array || file instanceof Blob
          ? Library.uploadWithResponse(file, uploadOptions)
          : Library.uploadWithResponse(byteStream(file), uploadOptions),
        options
      ),
    list: (filters?: ListFilesRequest, options?: CallOptions): ResponsePromise<ReadonlyArray<LibraryFile>> =>
      this.respond(Library.listWithResponse(filters), options),
    /** Every file that passes the filters, listed a page at a time. */
    listAll: (
      filters?: Parameters<typeof Library.stream>[0],
      options?: CallOptions
    ): AsyncIterable<LibraryFile> => this.iterate(Library.stream(filters), options),
    retrieve: (fileId: string, options?: CallOptions): ResponsePromise<LibraryFile> =>
      this.respond(Library.retrieveWithResponse(fileId), options),
    update: (fileId: string, changes: UpdateFileRequest, options?: CallOptions): ResponsePromise<void> =>
      this.respond(Library.updateWithResponse(fileId, changes), options),
    delete: (fileId: string, options?: CallOptions): ResponsePromise<void> =>
      this.respond(Library.deleteWithResponse(fileId), options),
    search: (request: LibrarySearchRequest, options?: CallOptions): ResponsePromise<LibrarySearchResponse> =>
      this.respond(Library.searchWithResponse(request), options),
    batchStatus: (batchId: string, options?: CallOptions): ResponsePromise<BatchStatus> =>
      this.respond(Library.batchStatusWithResponse(batchId), options),
    /** A file's bytes as uploaded, read as they are iterated, within `maxDownloadSize` (default 64 MiB). */
    download: (
      fileId: string,
      downloadOptions?: Library.DownloadOptions,
      options?: CallOptions
    ): AsyncIterable<Uint8Array> => this.iterate(Library.download(fileId, downloadOptions), options),
    /** A file's bytes as uploaded, whole, within `maxDownloadSize` (default 64 MiB). */
    downloadBytes: (
      fileId: string,
      downloadOptions?: Library.DownloadOptions,
      options?: CallOptions
    ): Promise<Uint8Array> => this.run(Library.downloadBytes(fileId, downloadOptions), options),
    /** The text the service extracted from a file, and its segments. */
    parsed: (fileId: string, options?: CallOptions): Promise<ParsedFile> => this.run(Library.parsed(fileId), options)
  }

  readonly batches = {
    /**
     * Creates a batch from a JSONL file's bytes or a `Blob` of chat requests (one a line, each with its
     * `custom_id`), checked before it is sent.
     */
    create: (
      request: Omit<Batches.CreateBatchOptions, "file"> & { readonly file: Uint8Array | Blob },
      options?: CallOptions
    ): ResponsePromise<Batch> => this.respond(Batches.createWithResponse(request), options),
    retrieve: (batchId: string, options?: CallOptions): ResponsePromise<Batch> =>
      this.respond(Batches.retrieveWithResponse(batchId), options),
    /** A page of batches, the newest first, after the batch `after`. */
    list: (page?: ListBatchesRequest, options?: CallOptions): ResponsePromise<BatchList> =>
      this.respond(Batches.listWithResponse(page), options),
    /** Every batch (after `after`), listed a page at a time. */
    listAll: (
      request?: Parameters<typeof Batches.stream>[0],
      options?: CallOptions
    ): AsyncIterable<Batch> => this.iterate(Batches.stream(request), options),
    cancel: (batchId: string, options?: CallOptions): ResponsePromise<Batch> =>
      this.respond(Batches.cancelWithResponse(batchId), options),
    /** The `output` (default) or `error` file of a batch's results, one `BatchResult` a request. */
    results: (
      batchId: string,
      request?: BatchResultsRequest,
      options?: CallOptions
    ): ResponsePromise<BatchResults> => this.respond(Batches.resultsWithResponse(batchId, request), options)
  }

  /**
   * Ends every call and stream in flight (each settles at once with `ClientClosed`, its connection released),
   * then releases what the client holds (connections of the transport). Calls made after it reject with
   * `ClientClosed`.
   */
  close(): Promise<void> {
    if (!this.closing.signal.aborted) this.closing.abort(new ClientClosed(true))
    return this.runtime.dispose()
  }

  /** The call's own signal, if any, joined with the client's closing. */
  private signalOf(options: CallOptions | undefined): AbortSignal {
    return callSignal(this.closing.signal, options?.signal)
  }

  private run<A, E>(effect: Effect.Effect<A, E, StudioClient.StudioClient>, options?: CallOptions): Promise<A> {
    if (this.closing.signal.aborted) return Promise.reject(new ClientClosed(false))
    const signal = this.signalOf(options)
    if (signal.aborted) return Promise.reject(signal.reason)
    return this.runtime.runPromiseExit(withRequestOptions(effect, options), { signal }).then((exit) => {
      if (Exit.isSuccess(exit)) return exit.value
      throw rejection(exit.cause, signal)
    })
  }

  /** A call of one request: awaited, its value; `withResponse()`, with its answer's metadata. */
  private respond<A, E>(
    effect: Effect.Effect<StudioClient.WithResponse<A>, E, StudioClient.StudioClient>,
    options?: CallOptions
  ): ResponsePromise<A> {
    return new ResponsePromise(this.run(effect, options))
  }

  /**
   * A stream: iterated, `stream`'s elements; `withResponse()` opens it with `open` in a scope of its own,
   * released when its elements have been read (or the loop left), when the call's signal aborts, or by
   * `close()`.
   */
  private respondStream<A, E>(
    stream: Stream.Stream<A, E, StudioClient.StudioClient>,
    open: Effect.Effect<
      StudioClient.WithResponse<Stream.Stream<A, E>>,
      E,
      StudioClient.StudioClient | Scope.Scope
    >,
    options?: CallOptions
  ): ResponseStream<A> {
    const opened = Effect.flatMap(Scope.make(), (scope) => {
      const signal = this.signalOf(options)
      const release = Effect.sync(() => signal.removeEventListener("abort", onAbort)).pipe(
        Effect.andThen(Scope.close(scope, Exit.void))
      )
      const onAbort = () => Effect.runFork(release)
      return Effect.map(
        Effect.onExit(Scope.provide(open, scope), (exit) => Exit.isSuccess(exit) ? Effect.void : release),
        (answer) => {
          signal.addEventListener("abort", onAbort, { once: true })
          // aborted while it opened: released now, as no listener will hear it
          if (signal.aborted) onAbort()
          return { ...answer, value: this.iterate(Stream.ensuring(answer.value, release), options) }
        }
      )
    })
    return new ResponseStream(() => this.iterate(stream, options), () => this.run(opened, options))
  }

  private iterate<A, E>(
    stream: Stream.Stream<A, E, StudioClient.StudioClient>,
    options?: CallOptions
  ): AsyncIterable<A> {
    if (this.closing.signal.aborted) return closedIterable()
    const signal = this.signalOf(options)
    const requestOptions = options?.requestOptions
    const configured = requestOptions === undefined
      ? stream
      : StudioClient.withStreamRequestOptions(stream, requestOptions)
    // a pull in flight is interrupted by the stream; elements of a read already made are not handed out
    return untilAborted(Chat.toAsyncIterable(Stream.interruptWhen(configured, aborted(signal)), this.runtime), signal)
  }
}

const clientLayer = (options: StudioOptions): Layer.Layer<StudioClient.StudioClient, unknown> => {
  const { apiKey, baseUrl, client: _client, httpClient, ...rest } = options
  const client = StudioClient.layerConfig({
    ...rest,
    ...(apiKey !== undefined &&
      { apiKey: Config.succeed(Redacted.isRedacted(apiKey) ? apiKey : Redacted.make(apiKey)) }),
    ...(baseUrl !== undefined && { baseUrl: Config.succeed(baseUrl) })
  })
  // the environment as it is when the client is made, as other clients' constructors read it
  const environment = ConfigProvider.layer(Effect.sync(() => ConfigProvider.fromEnv()))
  return Layer.provide(client, Layer.merge(httpClient ?? FetchHttpClient.layer, environment))
}

/** Each handler as the `Effect` `Chat.runTools` runs: its signal aborts when the loop's fiber is interrupted. */
const effectHandlers = (handlers: ToolHandlers): Chat.ToolHandlers<unknown, never> =>
  Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      (args: unknown, call: ToolCall) =>
        Effect.tryPromise({
          try: async (signal) => handler(args, { signal, call }),
          catch: (thrown) => thrown
        })
    ])
  )

/** The bytes of a Node `Readable`, an `AsyncIterable` or a web `ReadableStream`; their own error ends it. */
const byteStream = (
  source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>
): Stream.Stream<Uint8Array, unknown> =>
  Symbol.asyncIterator in source
    ? Stream.fromAsyncIterable(source, (cause) => cause)
    : Stream.fromReadableStream({ evaluate: () => source, onError: (cause) => cause })

const withRequestOptions = <A, E, R>(effect: Effect.Effect<A, E, R>, options: CallOptions | undefined) =>
  options?.requestOptions === undefined ? effect : StudioClient.withRequestOptions(effect, options.requestOptions)

/** Fails with the signal's reason when it aborts. */
const aborted = (signal: AbortSignal): Effect.Effect<never, unknown> =>
  Effect.callback<never, unknown>((resume) => {
    const abort = () => resume(Effect.fail(signal.reason))
    if (signal.aborted) return abort()
    signal.addEventListener("abort", abort, { once: true })
    return Effect.sync(() => signal.removeEventListener("abort", abort))
  })

/** What a failed call rejects with: its typed error, the signal's reason when it was aborted, or the defect. */
const rejection = (cause: Cause.Cause<unknown>, signal: AbortSignal): unknown => {
  const failure = Cause.findError(cause)
  if (Result.isSuccess(failure)) return failure.success
  if (signal.aborted && Cause.hasInterrupts(cause)) return signal.reason
  return Cause.squash(cause)
}
