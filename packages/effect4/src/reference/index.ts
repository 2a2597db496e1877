/**
 * The reference implementation of the Studio service: the same operations, wire format and validation as
 * the real service, a deterministic built-in model, runs driven by Effect's clock, an assistant store, and
 * optional rate limiting and faults. Run it in memory (`layer`, `layerClient`) for tests and the embedded
 * default, or over HTTP (`listen`, `serve`, or `npx studio-effect serve --port 8080`).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpServer from "effect/http/HttpServer"
import type * as HttpServerError from "effect/http/HttpServerError"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { loadWithPeer } from "studio-effect-core/platform/optionalPeer"
import * as StudioClient from "../StudioClient.js"
import { type App, make as makeApp, type ReferenceOptions } from "./app.js"
import * as Embedded from "./embedded.js"
import type { Listening, ListenOptions } from "./listening.js"

export {
  /**
   * @since 0.1.0
   * @category models
   */
  type App,
  /**
   * @since 0.1.0
   * @category constants
   */
  basePath,
  /**
   * @since 0.1.0
   * @category models
   */
  type ReferenceOptions
} from "./app.js"

export type {
  /**
   * @since 0.1.0
   * @category models
   */
  Listening,
  /**
   * @since 0.1.0
   * @category models
   */
  ListenOptions
} from "./listening.js"

/**
 * The built-in model, scripts of replies, and the `Model` type for a model of one's own.
 *
 * @since 0.1.0
 */
export * as Model from "./model.js"

/**
 * Faults to inject and rate limiting options.
 *
 * @since 0.1.0
 */
export * as Fault from "./faults.js"

/**
 * @since 0.1.0
 * @category models
 */
export type { RunConfiguration, RunFailure } from "studio-effect-core/reference/runs"

/**
 * The API key `layerClient` uses when none is given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultApiKey = Embedded.apiKey

/**
 * The service as an `HttpEffect`, with its own (empty) stores of runs and assistants, built in the scope.
 * Serve it with any `HttpServer`, or call it in memory with `layer`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const app = (options: ReferenceOptions = {}): Effect.Effect<App, never, Scope.Scope> => makeApp(options)

/**
 * An `HttpClient` that calls a fresh reference service in memory, without a socket. Give it to
 * `StudioClient.layer` (or use `layerClient`). Everything runs in the caller's fiber, so `TestClock`
 * drives runs, delays and rate-limit windows.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: ReferenceOptions = {}): Layer.Layer<HttpClient.HttpClient> => Embedded.transport(options)

/**
 * A ready `StudioClient` over a fresh in-memory reference service: the client's options (retries,
 * timeouts, ...) may be given under `client`; the key is the first of `apiKeys`, or `defaultApiKey`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerClient = (
  options: ReferenceOptions & { readonly client?: Omit<StudioClient.StudioClientOptions, "baseUrl"> | undefined } = {}
): Layer.Layer<StudioClient.StudioClient> =>
  StudioClient.layer({
    apiKey: Redacted.make(options.apiKeys?.[0] ?? defaultApiKey),
    ...options.client,
    baseUrl: Embedded.baseUrl
  }).pipe(Layer.orDie, Layer.provide(layer(options)))

/**
 * Serves the reference service with the `HttpServer` the application provides (for example
 * `NodeHttpServer.layer(() => http.createServer(), { port: 8080 })`).
 *
 * @since 0.1.0
 * @category layers
 */
export const serve = (options: ReferenceOptions = {}): Layer.Layer<never, never, HttpServer.HttpServer> =>
  Layer.unwrap(Effect.map(makeApp(options), (httpApp) => HttpServer.serve(httpApp)))

/**
 * Serves the reference service over HTTP on Node.js until the scope closes. It loads
 * `@effect/platform-node` only when called, so the package does not depend on it otherwise.
 *
 * @since 0.1.0
 * @category constructors
 */
export const listen = (
  options: ListenOptions = {}
): Effect.Effect<Listening, HttpServerError.ServeError, Scope.Scope> =>
  Effect.flatMap(
    Effect.promise(() =>
      loadWithPeer(() => import("./node.js"), {
        user: "Serving the reference service over HTTP",
        peer: "@effect/platform-node",
        install: "npm install @effect/platform-node@^4.1"
      })
    ),
    (node) => node.listen(options)
  )
