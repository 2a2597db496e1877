/**
 * The reference service as one `HttpApp`: chat completions (whole or streamed), orchestration runs, the
 * assistant resource, models, the library and batches, behind bearer auth, with optional rate limiting and fault
 * injection. Its options and its assembly: the limits (`limits.ts`), the readers of a request
 * (`requests.ts`), the handlers (`handlers.ts`), the routes of the endpoint table (`routes.ts`).
 *
 * @since 0.1.0
 */
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { defaultBatchTiming } from "studio-effect-core/reference/batches"
import { bearerKey } from "studio-effect-core/reference/fastApi"
import { makeIds } from "studio-effect-core/reference/ids"
import { defaultLibraryLimits } from "studio-effect-core/reference/library/library"
import {
  answerMetadataHeaders,
  defaultRequestsPerMinute,
  makeRateWindows
} from "studio-effect-core/reference/rateWindows"
import { pathOf } from "studio-effect-core/reference/requestPath"
import type { RunFailure } from "studio-effect-core/reference/runs"
import * as Endpoints from "studio-effect-core/wire/endpoints"
import { withFaults } from "./faultInjection.js"
import { type ConnectionDropped, type FaultPlan, faultsFor, type RateLimitOptions } from "./faults.js"
import { makeHandlers } from "./handlers.js"
import { makeLimits } from "./limits.js"
import { builtIn, type Model, type Reply, script } from "./model.js"
import { makeRequests } from "./requests.js"
import { route } from "./routes.js"
import * as Tenants from "./tenants.js"

/**
 * Options of the reference service. Everything is optional: by default it accepts any bearer token (and
 * every caller shares one store of assistants and runs), answers with the built-in model (seed 0), makes
 * identifiers that cannot be guessed, completes runs in steps of 200 ms of Effect's clock, and neither
 * limits rates (see `rateLimit`) nor injects faults. With `apiKeys`, each key has its own assistants and
 * runs. Every answer, refusals and event streams included, carries an `x-request-id` of its own and its
 * caller's `x-ratelimit-*-requests` figures.
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
  readonly runStepDuration?: Duration.DurationInput | undefined
  /** Makes chosen runs fail, with the returned `error.message`. */
  readonly failRun?: RunFailure | undefined
  /**
   * Rate limiting per API key; when omitted, `defaultRequestsPerMinute` (1,000,000) a minute, which a test
   * does not reach. Either way every answer reports its caller's window in `x-ratelimit-*-requests`.
   */
  readonly rateLimit?: RateLimitOptions | undefined
  /** Faults to inject; none when omitted. */
  readonly faults?: FaultPlan | undefined
  /** A pause between the events of a stream, on Effect's clock (default none). */
  readonly streamEventDelay?: Duration.DurationInput | undefined
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
   * stores of the key least recently used are forgotten. The limits of runs, assistants and libraries are per
   * key (but for `maxTotalLibraryBytes`).
   */
  readonly maxTenants?: number | undefined
  /**
   * The most bytes held by request bodies still being received, all together (default 32 MiB); a body that
   * would pass it is answered 503 with `retry-after`.
   */
  readonly maxPendingBodyBytes?: number | undefined
  /** The most files of each library (default 1,000); an upload past it is a 413. */
  readonly maxFiles?: number | undefined
  /**
   * The most bytes of each library (default 64 MiB): its files' bytes and what their index holds (10 bytes
   * for each distinct term of each segment of about 1,000 characters, and 256 for the segment); an upload past
   * it is a 413.
   */
  readonly maxLibraryBytes?: number | undefined
  /**
   * The most bytes of every library together, files and their index, all keys' libraries counted (default
   * 256 MiB); an upload past it is a 413. A key's files are forgotten with it (see `maxTenants`).
   */
  readonly maxTotalLibraryBytes?: number | undefined
  /** The largest file of a library, in bytes (default 4 MiB); a larger upload is a 413. */
  readonly maxFileBytes?: number | undefined
  /**
   * The most bytes of a library search's answer, as JSON (default 8 MiB): past it, the text of a hit is cut,
   * the hits after it are left out, and the answer says `"truncated": true`. `full_doc` shows each file once.
   */
  readonly maxSearchAnswerBytes?: number | undefined
  /** How long an uploaded file is `PROCESSING` on Effect's clock before it is `PROCESSED` (default 1 s). */
  readonly fileProcessingDuration?: Duration.DurationInput | undefined
  /** The most batches kept (default 100); creating one more evicts the oldest, which then answers 404. */
  readonly maxBatches?: number | undefined
  /**
   * The most characters of batch files kept, requests and results of all batches together (default 64 Mi);
   * the oldest batches are evicted first. A batch's file is at most `maxFileBytes` and 10,000 lines.
   */
  readonly maxBatchesSize?: number | undefined
  /** How long a new batch is `PENDING` on Effect's clock before its lines run (default 1 s). */
  readonly batchPendingDuration?: Duration.DurationInput | undefined
  /** How long each line of a batch takes on Effect's clock (default 200 ms); 0 runs them all at once. */
  readonly batchLineDuration?: Duration.DurationInput | undefined
}

/** A duration option in milliseconds, or its default. */
const millisOr = (input: Duration.DurationInput | undefined, fallback: number): number =>
  input === undefined ? fallback : Duration.toMillis(Duration.decode(input))

/**
 * The base of every path of the service.
 *
 * @since 0.1.0
 * @category constants
 */
export const basePath = Endpoints.basePath

/**
 * Builds the service's `HttpApp`, with its own stores of runs and assistants. Once `stopping` completes
 * (the server is shutting down), bodies still arriving are answered 503 and open streams end at once with
 * a last event saying so.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: ReferenceOptions = {},
  stopping: Effect.Effect<void> = Effect.never
): Effect.Effect<HttpApp.Default<ConnectionDropped>> =>
  Effect.sync(() => {
    const seed = options.seed ?? 0
    const ids = makeIds(options.seed)
    const model: Model = options.model === undefined
      ? builtIn
      : typeof options.model === "function"
      ? options.model
      : script(options.model)
    const extraModels = options.extraModels ?? []
    const keys = options.apiKeys === undefined ? undefined : new Set(options.apiKeys)
    const limits = makeLimits(options)
    const tenants = Tenants.make({
      separate: keys !== undefined,
      maxTenants: options.maxTenants,
      model,
      seed,
      ids,
      stepDuration: Duration.decode(options.runStepDuration ?? Duration.millis(200)),
      failRun: options.failRun,
      maxRuns: options.maxRuns,
      maxRunsSize: options.maxRunsSize,
      maxAssistants: options.maxAssistants,
      maxAssistantSize: options.maxAssistantSize,
      maxFiles: options.maxFiles,
      maxLibraryBytes: options.maxLibraryBytes,
      maxTotalLibraryBytes: options.maxTotalLibraryBytes,
      maxFileBytes: options.maxFileBytes,
      maxSearchAnswerBytes: options.maxSearchAnswerBytes,
      fileProcessingDuration: options.fileProcessingDuration === undefined
        ? undefined
        : Duration.toMillis(Duration.decode(options.fileProcessingDuration)),
      maxBatches: options.maxBatches,
      maxBatchesSize: options.maxBatchesSize,
      extraModels,
      maxJsonDepth: limits.maxJsonDepth,
      batchTiming: {
        pendingDuration: millisOr(options.batchPendingDuration, defaultBatchTiming.pendingDuration),
        lineDuration: millisOr(options.batchLineDuration, defaultBatchTiming.lineDuration)
      }
    })
    const windows = options.rateLimit === undefined
      ? makeRateWindows(defaultRequestsPerMinute, 60_000)
      : makeRateWindows(
        options.rateLimit.limit,
        Duration.toMillis(Duration.decode(options.rateLimit.window ?? Duration.minutes(1)))
      )
    const requests = makeRequests({ limits, stopping, keys, windows, tenants, extraModels })
    const handlers = makeHandlers({
      requests,
      limits,
      stopping,
      model,
      seed,
      ids,
      extraModels,
      streamEventDelay: options.streamEventDelay,
      maxFileBytes: options.maxFileBytes ?? defaultLibraryLimits.maxFileBytes
    })
    let requestCount = 0
    const routed = route(handlers, limits)
    return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const faults = faultsFor(options.faults, {
        method: request.method,
        path: pathOf(request.url),
        index: requestCount++
      })
      const answered = faults.length === 0 ? routed : withFaults(faults, routed)
      // every answer, refusals and streams included, names itself and its caller's window of requests
      return Effect.zipWith(
        answered,
        Effect.clockWith((clock) => clock.currentTimeMillis),
        (response, now) =>
          HttpServerResponse.setHeaders(
            response,
            answerMetadataHeaders(
              response.headers,
              ids.request(),
              windows.figures(bearerKey(request.headers["authorization"]) ?? "", now)
            )
          )
      )
    })
  })
