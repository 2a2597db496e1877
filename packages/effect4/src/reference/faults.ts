/**
 * Rate limiting and fault injection, both off by default: a reference service that answers 429 with
 * `Retry-After`, fails with chosen statuses, answers late, drops connections before answering or in the
 * middle of a body, or ends a stream before `[DONE]`, so that a client's reliability can be tested.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Stream from "effect/Stream"
import * as FaultPlans from "studio-effect-core/reference/faultPlan"

/**
 * A fault the service injects into one request (the core's `Fault`, with this line's duration input).
 *
 * @since 0.1.0
 * @category models
 */
export type Fault = FaultPlans.Fault<Duration.Input>

/**
 * @since 0.1.0
 * @category constructors
 */
export const status = (
  code: number,
  options: { readonly detail?: string; readonly headers?: Readonly<Record<string, string>> } = {}
): Fault => ({ _tag: "Status", status: code, detail: options.detail, headers: options.headers })

/**
 * @since 0.1.0
 * @category constructors
 */
export const delay = (duration: Duration.Input): Fault => ({ _tag: "Delay", duration })

/**
 * @since 0.1.0
 * @category constructors
 */
export const drop: Fault = { _tag: "Drop" }

/**
 * @since 0.1.0
 * @category constructors
 */
export const dropMidStream = (afterEvents = 2): Fault => ({ _tag: "DropMidStream", afterEvents })

/**
 * @since 0.1.0
 * @category constructors
 */
export const cutStream = (afterEvents = 2): Fault => ({ _tag: "CutStream", afterEvents })

/**
 * @since 0.1.0
 * @category constructors
 */
export const afterHandling = (
  options: {
    readonly delay?: Duration.Input | undefined
    readonly status?: number | undefined
    readonly detail?: string | undefined
  }
): Fault => ({ _tag: "AfterHandling", ...options })

/**
 * The request a fault plan is asked about: its method, path without the query, and how many requests the
 * service saw before it.
 *
 * @since 0.1.0
 * @category models
 */
export type FaultRequest = FaultPlans.FaultRequest

/**
 * Which faults to inject: a list read in order (request `i` gets entry `i`; `undefined` or `null` for
 * none; requests past the end get none), or a function of the request. An entry may combine faults, such
 * as a delay and then a status.
 *
 * @since 0.1.0
 * @category models
 */
export type FaultPlan = FaultPlans.FaultPlan<Duration.Input>

/**
 * A plan that injects one of `faults` into a request with the given probability, decided by a seeded
 * generator, so that the same seed gives the same sequence of faults.
 *
 * @since 0.1.0
 * @category constructors
 */
export const random: (options: {
  readonly probability: number
  readonly faults: ReadonlyArray<Fault>
  readonly seed?: number | undefined
}) => FaultPlan = FaultPlans.randomPlan

/**
 * Rate limiting: at most `limit` requests per API key in each fixed `window` (one minute unless given);
 * a request over the limit gets 429 with `Retry-After` in whole seconds until the window ends.
 *
 * @since 0.1.0
 * @category models
 */
export interface RateLimitOptions {
  readonly limit: number
  readonly window?: Duration.Input | undefined
}

/**
 * The faults a plan gives a request.
 *
 * @since 0.1.0
 * @category plans
 */
export const faultsFor: (plan: FaultPlan | undefined, request: FaultRequest) => ReadonlyArray<Fault> =
  FaultPlans.faultsFor

/** The connection was closed on purpose, before or during the answer. */
export class ConnectionDropped extends Data.TaggedError("ConnectionDropped")<{}> {}

/**
 * How the transport closes a connection: over a socket it destroys the socket; in memory the failure
 * itself is the dropped connection.
 */
export const ConnectionControl = Context.Reference<{
  readonly drop: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<void>
}>(
  "studio-effect/reference/ConnectionControl",
  { defaultValue: () => ({ drop: () => Effect.void }) }
)

/** Closes the connection of `request`, failing with `ConnectionDropped`. */
export const dropConnection = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<never, ConnectionDropped> =>
  Effect.flatMap(ConnectionControl, (control) => control.drop(request)).pipe(
    Effect.andThen(Effect.fail(new ConnectionDropped()))
  )

const halves = (bytes: Uint8Array): ReadonlyArray<Uint8Array> => {
  const middle = Math.floor(bytes.length / 2)
  return [bytes.slice(0, middle), bytes.slice(middle)]
}

/**
 * The response with its body cut (or its connection dropped) as the fault says. The transport's way of
 * dropping a connection is read now, while the request is handled, since the body is sent later.
 */
export const cutBody = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse,
  fault: Extract<Fault, { readonly _tag: "DropMidStream" | "CutStream" }>
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.map(ConnectionControl, (control) => {
    const body = response.body
    let events: Stream.Stream<Uint8Array, unknown>
    let keep: number
    if (body._tag === "Stream") {
      events = body.stream
      keep = Math.max(0, fault.afterEvents)
    } else if (body._tag === "Uint8Array") {
      events = Stream.fromIterable(halves(body.body))
      keep = 1
    } else {
      return response
    }
    const kept = Stream.take(events, keep)
    const ending: Stream.Stream<Uint8Array, unknown> = fault._tag === "DropMidStream"
      ? Stream.fromEffect(Effect.andThen(control.drop(request), Effect.fail(new ConnectionDropped())))
      : Stream.empty
    const { "content-length": _length, ...headers } = response.headers
    return HttpServerResponse.stream(Stream.concat(kept, ending), {
      status: response.status,
      headers,
      contentType: body.contentType
    })
  })
