/**
 * The reference service as one `HttpEffect`, routed with `effect/http`'s `HttpRouter`: chat completions
 * (whole or streamed), orchestration runs, and the assistant resource, behind bearer auth, with optional
 * rate limiting and fault injection. Requests are validated with the SDK's own schemas.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { answerSchemaIssue } from "studio-effect-core/reference/answerSchema"
import { mergeRunConfiguration } from "studio-effect-core/reference/assistants"
import { budgetSpentDetail, defaultMaxPendingBodyBytes, makeByteBudget } from "studio-effect-core/reference/byteBudget"
import { completion } from "studio-effect-core/reference/chat"
import { makeIds } from "studio-effect-core/reference/ids"
import { defaultLibraryLimits, fileNotFound, type Write } from "studio-effect-core/reference/library/library"
import { fieldText, parseMultipart } from "studio-effect-core/reference/library/multipart"
import { isRunModel, modelList } from "studio-effect-core/reference/models"
import { isDecodablePath } from "studio-effect-core/reference/requestPath"
import type { RunFailure } from "studio-effect-core/reference/runs"
import * as Endpoints from "studio-effect-core/wire/endpoints"
import { chatModels, runModels } from "studio-effect-core/wire/models"
import * as AssistantSchema from "../AssistantSchema.js"
import { ChatRequest } from "../ChatSchema.js"
import * as LibrarySchema from "../LibrarySchema.js"
import { RunRequest } from "../MaestroSchema.js"
import type { AssistantTooLarge } from "./assistants.js"
import {
  type BodyTooLarge,
  type BudgetSpent,
  declaredLength,
  defaultMaxBodyBytes,
  readBytes,
  readText,
  tooLargeDetail
} from "./body.js"
import * as Chat from "./chat.js"
import {
  type ConnectionDropped,
  cutBody,
  dropConnection,
  type Fault,
  type FaultPlan,
  faultsFor,
  type RateLimitOptions
} from "./faults.js"
import { builtIn, type Model, type Reply, script } from "./model.js"
import * as Sse from "./sse.js"
import * as Tenants from "./tenants.js"
import * as Wire from "./wire.js"

/**
 * Options of the reference service. Everything is optional: by default it accepts any bearer token (and
 * every caller shares one store of assistants and runs), answers with the built-in model (seed 0), makes
 * identifiers that cannot be guessed, completes runs in steps of 200 ms of Effect's clock, and neither
 * limits rates nor injects faults. With `apiKeys`, each key has its own assistants and runs.
 *
 * @since 0.1.0
 * @category models
 */
export interface ReferenceOptions {
  /**
   * The API keys it accepts, each with its own assistants and runs; when omitted, any non-empty bearer
   * token, all sharing one store.
   */
  readonly apiKeys?: ReadonlyArray<string> | undefined
  /**
   * The seed of the built-in model (default 0) and, when given, of identifiers, which then follow the same
   * sequence on every start; without it, identifiers are random and cannot be guessed.
   */
  readonly seed?: number | undefined
  /** The model: a function from request to reply, or a script of replies given in order. */
  readonly model?: Model | ReadonlyArray<Reply> | undefined
  /**
   * Model identifiers accepted besides the interface's own, and listed by `GET /studio/v1/models`. A run's
   * `models` also takes any identifier outside the service's `fpmodel-` family, as a third-party model
   * configured in the caller's account.
   */
  readonly extraModels?: ReadonlyArray<string> | undefined
  /** How long one step of a run takes on Effect's clock (default 200 ms). */
  readonly runStepDuration?: Duration.Input | undefined
  /** Makes chosen runs fail, with the returned `error.message`. */
  readonly failRun?: RunFailure | undefined
  /** Rate limiting per API key; off when omitted. */
  readonly rateLimit?: RateLimitOptions | undefined
  /** Faults to inject; none when omitted. */
  readonly faults?: FaultPlan | undefined
  /** A pause between the events of a stream, on Effect's clock (default none). */
  readonly streamEventDelay?: Duration.Input | undefined
  /** The largest request body accepted, in bytes (default 1 MiB); a larger one is answered 413. */
  readonly maxBodyBytes?: number | undefined
  /** The deepest nesting of arrays and objects accepted in a JSON body (default 64); deeper is a 422. */
  readonly maxJsonDepth?: number | undefined
  /** The most runs kept (default 1,000); a new run evicts the oldest, which then answers 404. */
  readonly maxRuns?: number | undefined
  /** The most characters of run JSON kept, all runs together (default 64 Mi); the oldest are evicted first. */
  readonly maxRunsSize?: number | undefined
  /** The most assistants kept (default 500); creating one more evicts the oldest. */
  readonly maxAssistants?: number | undefined
  /** The longest assistant kept, in characters of its JSON (default 32 Ki); a longer one is a 413. */
  readonly maxAssistantSize?: number | undefined
  /**
   * The most keys whose stores are kept at once (default 100), when `apiKeys` separates them; past it, the
   * stores of the key least recently used are forgotten. The limits of runs and assistants are per key.
   */
  readonly maxTenants?: number | undefined
  /**
   * The most bytes held by request bodies still being received, all together (default 32 MiB); a body that
   * would pass it is answered 503 with `retry-after`.
   */
  readonly maxPendingBodyBytes?: number | undefined
  /** The most files of each library (default 1,000); an upload past it is a 413. */
  readonly maxFiles?: number | undefined
  /** The most bytes of all files of each library (default 64 MiB); an upload past it is a 413. */
  readonly maxLibraryBytes?: number | undefined
  /** The largest file of a library, in bytes (default 4 MiB); a larger upload is a 413. */
  readonly maxFileBytes?: number | undefined
  /** How long an uploaded file is `PROCESSING` on Effect's clock before it is `PROCESSED` (default 1 s). */
  readonly fileProcessingDuration?: Duration.Input | undefined
}

/**
 * The base of every path of the service.
 *
 * @since 0.1.0
 * @category constants
 */
export const basePath = Endpoints.basePath

const uploadPath = Endpoints.endpoints.libraryUpload.path

/** What a multipart body may hold besides its file: the fields and the boundaries between them. */
const multipartOverhead = 64 * 1024

const pathOf = (url: string): string => {
  const q = url.indexOf("?")
  return q === -1 ? url : url.slice(0, q)
}

/** The most API keys whose rate-limit windows are kept at once; past it, the oldest window is forgotten. */
const maxRateLimitedKeys = 10_000

/** A body still arriving when the service stops. */
class ShuttingDown {
  readonly _tag = "ShuttingDown"
}

/** The `detail` of the answers a service shutting down gives, and of the last event of its open streams. */
const shuttingDownDetail = "The service is shutting down: this answer is cut short. Retry once it is back."

const modelIssue = (accepted: ReadonlyArray<string>, loc: ReadonlyArray<string | number>): Wire.FastApiIssue => ({
  loc,
  msg: `Input should be ${accepted.map((m) => `'${m}'`).join(", ")}`,
  type: "enum"
})

/**
 * The service as an `HttpEffect`: it answers the `HttpServerRequest` in context, and fails only with
 * `ConnectionDropped` when a fault closes the connection, which the transport then makes real.
 *
 * @since 0.1.0
 * @category models
 */
export type App = Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  ConnectionDropped,
  HttpServerRequest.HttpServerRequest | Scope.Scope
>

/**
 * Builds the service's `HttpEffect`, with its own stores of runs and assistants. Once `stopping` completes
 * (the server is shutting down), bodies still arriving are answered 503 and open streams end at once with
 * a last event saying so.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: ReferenceOptions = {},
  stopping: Effect.Effect<void> = Effect.never
): Effect.Effect<App, never, Scope.Scope> =>
  Effect.suspend(() => {
    const seed = options.seed ?? 0
    const ids = makeIds(options.seed)
    const model: Model = options.model === undefined
      ? builtIn
      : typeof options.model === "function"
      ? options.model
      : script(options.model)
    const acceptedChatModels = [...chatModels, ...(options.extraModels ?? [])]
    const extraModels = options.extraModels ?? []
    const acceptedRunModels = [...runModels, ...extraModels]
    const models = modelList(extraModels)
    const keys = options.apiKeys === undefined ? undefined : new Set(options.apiKeys)
    const tenants = Tenants.make({
      separate: keys !== undefined,
      maxTenants: options.maxTenants,
      model,
      seed,
      ids,
      stepDuration: Duration.fromInputUnsafe(options.runStepDuration ?? Duration.millis(200)),
      failRun: options.failRun,
      maxRuns: options.maxRuns,
      maxRunsSize: options.maxRunsSize,
      maxAssistants: options.maxAssistants,
      maxAssistantSize: options.maxAssistantSize,
      maxFiles: options.maxFiles,
      maxLibraryBytes: options.maxLibraryBytes,
      maxFileBytes: options.maxFileBytes,
      fileProcessingDuration: options.fileProcessingDuration === undefined
        ? undefined
        : Duration.toMillis(Duration.fromInputUnsafe(options.fileProcessingDuration))
    })
    const pending = makeByteBudget(options.maxPendingBodyBytes ?? defaultMaxPendingBodyBytes)
    const windows = new Map<string, { start: number; count: number }>()
    let requestCount = 0
    const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes
    const maxJsonDepth = options.maxJsonDepth ?? Wire.defaultMaxJsonDepth
    // the connection closes after a 413, so the rest of an unread body is not drained on a kept-alive socket
    // an upload's body holds a file of up to maxFileBytes, and its form fields
    const maxUploadBytes = Math.max(
      maxBodyBytes,
      (options.maxFileBytes ?? defaultLibraryLimits.maxFileBytes) + multipartOverhead
    )
    const tooLarge = (limit = maxBodyBytes) => Wire.detail(413, tooLargeDetail(limit), { connection: "close" })
    /** A 503 for a body refused while it arrives: the rest is not read, so the connection closes. */
    const unavailable = (detail: string) => Wire.detail(503, detail, { connection: "close", "retry-after": "1" })

    // -- request helpers ------------------------------------------------------------------------------

    /**
     * The request body decoded with a schema: a bad body becomes the 422 FastAPI would send, one nested too
     * deeply a 422 before any decoding, one over the size limit `BodyTooLarge` (a 413), and one that would
     * pass the budget of unfinished bodies `BudgetSpent`, or one still arriving when the service stops
     * `ShuttingDown` (both 503s).
     */
    const body = <A>(schema: Schema.ConstraintDecoder<A>) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        readText(request, maxBodyBytes, pending).pipe(
          Effect.raceFirst(Effect.andThen(stopping, Effect.fail(new ShuttingDown()))),
          Effect.catchTag("BodyUnreadable", () => Effect.succeed("\u0000")),
          Effect.flatMap((text): Effect.Effect<A, Wire.InvalidBody> => {
            const parsed = Wire.parseJson(text)
            if (Result.isFailure(parsed)) return Effect.fail(parsed.failure)
            const shape = Wire.shapeOf(parsed.success, maxJsonDepth)
            if (shape.tooDeep) return Effect.fail(new Wire.InvalidBody([Wire.tooDeepIssue(maxJsonDepth)]))
            return Wire.decodeBody(schema, parsed.success, shape.values <= Wire.maxValuesForEveryIssue)
          })
        ))

    const bearer = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
      const header = request.headers["authorization"]
      const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header)
      return match === null ? undefined : match[1]
    }

    /**
     * Auth, then the rate limit, then the handler with the caller's tenant; validation failures become
     * 422s, a body refused while it arrives a 413 or a 503.
     */
    const endpoint = (
      handler: (tenant: Tenants.Tenant) => Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        Wire.InvalidBody | BodyTooLarge | BudgetSpent | ShuttingDown,
        HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext
      >
    ) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const key = bearer(request)
        if (key === undefined || (keys !== undefined && !keys.has(key))) {
          return Wire.detail(401, Wire.unauthorizedDetail)
        }
        if (options.rateLimit !== undefined) {
          const now = yield* Clock.currentTimeMillis
          const window = Duration.toMillis(options.rateLimit.window ?? Duration.minutes(1))
          const current = windows.get(key)
          const slot = current === undefined || now - current.start >= window ? { start: now, count: 0 } : current
          slot.count++
          if (slot !== current) {
            // re-inserted, so the map stays in the order windows started: expired ones are at its front
            windows.delete(key)
            windows.set(key, slot)
            for (const [oldKey, old] of windows) {
              if (now - old.start < window && windows.size <= maxRateLimitedKeys) break
              windows.delete(oldKey)
            }
          }
          if (slot.count > options.rateLimit.limit) {
            const seconds = Math.max(1, Math.ceil((slot.start + window - now) / 1000))
            return Wire.detail(429, "Too many requests: rate limit exceeded.", { "retry-after": String(seconds) })
          }
        }
        return yield* handler(tenants.of(key)).pipe(
          Effect.catchTags({
            InvalidBody: (error) => Effect.succeed(Wire.unprocessable(error.issues)),
            BodyTooLarge: (error) => Effect.succeed(tooLarge(error.limit)),
            BudgetSpent: (error) => Effect.succeed(unavailable(budgetSpentDetail(error.limit))),
            ShuttingDown: () => Effect.succeed(unavailable(shuttingDownDetail))
          })
        )
      })

    const param = (name: string) => Effect.map(HttpRouter.params, (params) => params[name] ?? "")

    // -- chat -----------------------------------------------------------------------------------------

    const chat = endpoint(() =>
      Effect.gen(function*() {
        const request = yield* Effect.filterOrFail(
          body(ChatRequest),
          (request) => acceptedChatModels.includes(request.model),
          () => new Wire.InvalidBody([modelIssue(acceptedChatModels, ["body", "model"])])
        )
        const schemaIssue = answerSchemaIssue(request)
        if (schemaIssue !== undefined) return Wire.unprocessable([schemaIssue])
        const generated = yield* Chat.generate(model, request, { seed, ids })
        if (request.stream !== true) return Wire.json(completion(generated))
        const pause = options.streamEventDelay === undefined
          ? undefined
          : Duration.fromInputUnsafe(options.streamEventDelay)
        const chunks = pause === undefined || Duration.toMillis(pause) === 0
          ? Chat.chunks(generated)
          : Stream.suspend(() => {
            // a pause between events: the first goes out at once
            let first = true
            return Chat.chunks(generated).pipe(
              Stream.tap(() => first ? Effect.sync(() => (first = false)) : Effect.sleep(pause))
            )
          })
        return HttpServerResponse.stream(Sse.encode(chunks, stopping, shuttingDownDetail), {
          contentType: "text/event-stream",
          headers: { "cache-control": "no-cache" }
        })
      })
    )

    // -- runs -----------------------------------------------------------------------------------------

    /**
     * A body whose `models`, when given, names a model the service runs (see `isRunModel`); another is a
     * 422 at `body.models.0`.
     */
    const runBody = <A extends { readonly models?: ReadonlyArray<string> | undefined }>(
      schema: Schema.ConstraintDecoder<A>
    ) =>
      Effect.filterOrFail(
        body(schema),
        (request) => request.models?.[0] === undefined || isRunModel(request.models[0], extraModels),
        () => new Wire.InvalidBody([modelIssue(acceptedRunModels, ["body", "models", 0])])
      )

    const createRun = endpoint(({ runs }) =>
      Effect.gen(function*() {
        const request = yield* runBody(RunRequest)
        return Wire.json(yield* runs.create(request))
      })
    )

    const retrieveRun = endpoint(({ runs }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const run = yield* runs.retrieve(id)
        return run === undefined ? Wire.notFound("Run", id) : Wire.json(run)
      })
    )

    // -- assistants -----------------------------------------------------------------------------------

    /** An assistant longer than the store keeps: 413, and nothing is stored. */
    const tooLong = (error: AssistantTooLarge) => Effect.succeed(Wire.detail(413, error.message))

    const createAssistant = endpoint(({ assistants }) =>
      Effect.gen(function*() {
        const request = yield* runBody(AssistantSchema.CreateAssistantRequest)
        return yield* assistants.create(request).pipe(
          Effect.map(Wire.json),
          Effect.catchTag("AssistantTooLarge", tooLong)
        )
      })
    )

    const listAssistants = endpoint(({ assistants }) => Effect.map(assistants.listJson, Wire.jsonText))

    const retrieveAssistant = endpoint(({ assistants }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const assistant = yield* assistants.retrieve(id)
        return assistant === undefined ? Wire.notFound("Assistant", id) : Wire.json(assistant)
      })
    )

    const updateAssistant = endpoint(({ assistants }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        if ((yield* assistants.retrieve(id)) === undefined) return Wire.notFound("Assistant", id)
        const request = yield* runBody(AssistantSchema.ModifyAssistantRequest)
        return yield* assistants.update(id, request).pipe(
          Effect.map((updated) => updated === undefined ? Wire.notFound("Assistant", id) : Wire.json(updated)),
          Effect.catchTag("AssistantTooLarge", tooLong)
        )
      })
    )

    const deleteAssistant = endpoint(({ assistants }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const deleted = yield* assistants.remove(id)
        return deleted === undefined ? Wire.notFound("Assistant", id) : Wire.json(deleted)
      })
    )

    const runAssistant = endpoint(({ assistants, runs }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const assistant = yield* assistants.retrieve(id)
        if (assistant === undefined) return Wire.notFound("Assistant", id)
        const request = yield* runBody(AssistantSchema.AssistantRunRequest)
        return Wire.json(yield* runs.create(mergeRunConfiguration(assistant, request)))
      })
    )

    // -- models ---------------------------------------------------------------------------------------

    const listModels = endpoint(() => Effect.sync(() => Wire.json(models)))

    // -- library --------------------------------------------------------------------------------------

    /** The answer of a library write: its value, a 413 for its size, or a 422 for a broken rule. */
    const writeAnswer = <A>(write: Write<A>, answer: (value: A) => HttpServerResponse.HttpServerResponse) =>
      write._tag === "Done"
        ? answer(write.value)
        : write._tag === "TooLarge"
        ? Wire.detail(413, write.message)
        : Wire.unprocessable(write.issues)

    const uploadFile = endpoint(({ library }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const bytes = yield* readBytes(request, maxUploadBytes, pending).pipe(
          Effect.raceFirst(Effect.andThen(stopping, Effect.fail(new ShuttingDown()))),
          Effect.catchTag("BodyUnreadable", () => Effect.succeed(new Uint8Array(0)))
        )
        const form = parseMultipart(request.headers["content-type"], bytes)
        if (form._tag === "Malformed") return Wire.detail(400, `There was an error parsing the body: ${form.reason}.`)
        const parts = form._tag === "Parts" ? form.parts : []
        const file = parts.find((part) => part.name === "file" && part.filename !== undefined)
        if (file === undefined) {
          return Wire.unprocessable([{ loc: ["body", "file"], msg: "Field required", type: "missing" }])
        }
        const field = (name: string) => {
          const part = parts.find((part) => part.name === name && part.filename === undefined)
          return part === undefined ? undefined : fieldText(part)
        }
        const labels = parts.filter((part) => part.name === "labels" && part.filename === undefined).map(fieldText)
        // a file name may carry the client's directories (`docs/a.txt`): the name is its last part
        const filename = file.filename!
        const name = filename.slice(Math.max(filename.lastIndexOf("/"), filename.lastIndexOf("\\")) + 1)
        const write = yield* library.upload({
          name,
          bytes: file.body,
          path: field("path"),
          labels,
          publicUrl: field("publicUrl"),
          batchId: field("batch_id"),
          dataSource: field("data_source")
        })
        return writeAnswer(write, Wire.json)
      })
    )

    const listQuery = Schema.decodeUnknownEffect(LibrarySchema.ListFilesRequest)

    const listFiles = endpoint(({ library }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const query = new URL(request.url, "http://reference.local").searchParams
        const number = (name: string) => {
          const value = query.get(name)
          return value === null ? undefined : /^-?\d{1,15}$/.test(value) ? Number(value) : value
        }
        const filters = yield* listQuery({
          name: query.get("name") ?? undefined,
          path: query.get("path") ?? undefined,
          status: query.get("status") ?? undefined,
          label: query.getAll("label"),
          limit: number("limit"),
          offset: number("offset")
        }, { errors: "all", onExcessProperty: "ignore" }).pipe(
          Effect.mapError((error) => new Wire.InvalidBody(Wire.issuesOf(error, ["query"])))
        )
        return Wire.json(yield* library.list({ ...filters, labels: filters.label }))
      })
    )

    const retrieveFile = endpoint(({ library }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const file = yield* library.lookup(id)
        return file === undefined ? Wire.detail(404, fileNotFound(id)) : Wire.json(file)
      })
    )

    const updateFile = endpoint(({ library }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        if ((yield* library.lookup(id)) === undefined) return Wire.detail(404, fileNotFound(id))
        const changes = yield* body(LibrarySchema.UpdateFileRequest)
        const write = yield* library.update(id, changes)
        return write === undefined ? Wire.detail(404, fileNotFound(id)) : writeAnswer(write, () => Wire.json(null))
      })
    )

    const deleteFile = endpoint(({ library }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        switch (yield* library.remove(id)) {
          case "NotFound":
            return Wire.detail(404, fileNotFound(id))
          case "Processing":
            return Wire.unprocessable([{
              loc: ["path", "file_id"],
              msg: "The file is PROCESSING and cannot be deleted until it is processed.",
              type: "value_error"
            }])
          case "Deleted":
            return Wire.json(null)
        }
      })
    )

    const searchLibrary = endpoint(({ library }) =>
      Effect.gen(function*() {
        const request = yield* body(LibrarySchema.LibrarySearchRequest)
        return Wire.json(yield* library.search(request))
      })
    )

    const batchStatus = endpoint(({ library }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const status = yield* library.batchStatus(id)
        return status === undefined ? Wire.detail(404, `Batch ${id} not found.`) : Wire.json(status)
      })
    )

    // -- routing --------------------------------------------------------------------------------------

    /** Each operation of the endpoint table with its handler. */
    const handlers = [
      [Endpoints.endpoints.chatCreate, chat],
      [Endpoints.endpoints.maestroCreate, createRun],
      [Endpoints.endpoints.maestroRetrieve, retrieveRun],
      [Endpoints.endpoints.assistantsList, listAssistants],
      [Endpoints.endpoints.assistantsCreate, createAssistant],
      [Endpoints.endpoints.assistantsRetrieve, retrieveAssistant],
      [Endpoints.endpoints.assistantsUpdate, updateAssistant],
      [Endpoints.endpoints.assistantsDelete, deleteAssistant],
      [Endpoints.endpoints.assistantsRun, runAssistant],
      [Endpoints.endpoints.assistantsRunSample, runAssistant],
      [Endpoints.endpoints.modelsList, listModels],
      [Endpoints.endpoints.libraryUpload, uploadFile],
      [Endpoints.endpoints.libraryList, listFiles],
      [Endpoints.endpoints.libraryRetrieve, retrieveFile],
      [Endpoints.endpoints.libraryUpdate, updateFile],
      [Endpoints.endpoints.libraryDelete, deleteFile],
      [Endpoints.endpoints.librarySearch, searchLibrary],
      [Endpoints.endpoints.libraryBatchStatus, batchStatus]
    ] as const

    const routes = HttpRouter.addAll(
      handlers.map(([endpoint, handler]) =>
        HttpRouter.route(endpoint.method, Endpoints.routePattern(endpoint), handler)
      )
    )

    return Effect.map(HttpRouter.toHttpEffect(routes), (router): App => {
      const served = router.pipe(
        Effect.catchReason("HttpServerError", "RouteNotFound", (notFound) =>
          Effect.succeed(
            Endpoints.isServicePath(pathOf(notFound.request.url))
              ? Wire.detail(405, "Method Not Allowed")
              : Wire.detail(404, "Not Found")
          )),
        Effect.orDie,
        Effect.catchDefect(() => Effect.succeed(Wire.detail(500, "Internal Server Error")))
      )

      /**
       * A body declared larger than the limit is refused before anything else, as a proxy in front would; a
       * path with a broken percent-escape names nothing the service holds (404).
       */
      const routed = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        if (!isDecodablePath(pathOf(request.url))) return Effect.succeed(Wire.detail(404, "Not Found"))
        const declared = declaredLength(request)
        // an upload has a limit of its own
        const limit = request.method === "POST" && pathOf(request.url) === uploadPath ? maxUploadBytes : maxBodyBytes
        return declared !== undefined && declared > limit ? Effect.succeed(tooLarge(limit)) : served
      })

      /** Runs the request through the faults the plan gives it. */
      const withFaults = (faults: ReadonlyArray<Fault>) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          let cut: Extract<Fault, { readonly _tag: "DropMidStream" | "CutStream" }> | undefined
          let after: Extract<Fault, { readonly _tag: "AfterHandling" }> | undefined
          for (const fault of faults) {
            switch (fault._tag) {
              case "Delay":
                yield* Effect.sleep(fault.duration)
                break
              case "Drop":
                return yield* dropConnection(request)
              case "Status":
                return Wire.detail(fault.status, fault.detail ?? "Injected fault.", fault.headers ?? {})
              case "AfterHandling":
                after = fault
                break
              default:
                cut = fault
            }
          }
          const response = yield* routed
          if (after !== undefined) {
            if (after.delay !== undefined) yield* Effect.sleep(after.delay)
            if (after.status !== undefined) return Wire.detail(after.status, after.detail ?? "Injected fault.")
          }
          return cut === undefined ? response : yield* cutBody(request, response, cut)
        })

      return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const faults = faultsFor(options.faults, {
          method: request.method,
          path: pathOf(request.url),
          index: requestCount++
        })
        return faults.length === 0 ? routed : withFaults(faults)
      })
    })
  })
