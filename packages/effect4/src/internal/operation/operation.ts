/**
 * The operations of the service: each is its row of the core's endpoint table (name, method, path, whether
 * it creates, span attributes) with the check of its input (its schema and fast path) and the decoder of its
 * answer. `json` and `stream` make the call from that descriptor: check the input (a broken rule fails with
 * `ValidationError` and nothing is sent), send the request through the client service, decode the answer,
 * all in the span `studio.<name>`.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { Accept } from "studio-effect-core/validate/accept"
import { type Endpoint, endpointPath } from "studio-effect-core/wire/endpoints"
import { type Service, StudioClient } from "../../StudioClient.js"
import type { RequestError, ValidationError } from "../../StudioError.js"
import {
  type JsonRequest,
  type RawBody,
  type ResponseDecoder,
  responseDecoder,
  type StreamRequest,
  type WithResponse
} from "../http/request.js"
import { pathSegment, requestValidator } from "../schema/validate.js"
import type { EventError } from "../stream/sse.js"
import { spanOptions } from "./telemetry.js"

/** Checks the input of a call, naming the operation in its error. */
export type Check<In, Valid> = (operation: string, input: In) => Effect.Effect<Valid, ValidationError>

/** The input a check takes. */
export type InputOf<C> = C extends Check<infer In, any> ? In : never

/** The checked value a check gives. */
export type ValidOf<C> = C extends Check<any, infer Valid> ? Valid : never

/** A schema of a request, decoded without services. */
type RequestSchema = Schema.Top & { readonly DecodingServices: never }

/** An input checked against a request schema, a usual one by the schema's fast path `accept`. */
export const checkRequest = <S extends RequestSchema>(
  schema: S,
  accept?: Accept<S["Type"]>
): Check<unknown, S["Type"]> => requestValidator(schema, accept)

/** An identifier that goes into the path: as given (for spans) and as its encoded path segment. */
export interface PathId {
  readonly id: string
  readonly segment: string
}

/** An identifier checked as a path segment (`field` names it in the error). */
export const checkId = (field: string): Check<string, PathId> => (operation, id) =>
  Effect.map(pathSegment(operation, field, id), (segment) => ({ id, segment }))

/** An identifier and a request: the request is checked first, then the identifier. */
export const checkIdAndRequest = <S extends RequestSchema>(
  field: string,
  schema: S,
  accept?: Accept<S["Type"]>
): Check<{ readonly id: string; readonly request: unknown }, PathId & { readonly request: S["Type"] }> => {
  const validate = requestValidator(schema, accept)
  return (operation, input) =>
    Effect.flatMap(
      validate(operation, input.request),
      (request) =>
        Effect.map(pathSegment(operation, field, input.id), (segment) => ({ id: input.id, segment, request }))
    )
}

/** An operation whose answer is one JSON value. */
export interface JsonOperation<C extends Check<any, any>, A, I> {
  /** Its row of the endpoint table; the path's `{id}` is the checked input's `segment`. */
  readonly endpoint: Endpoint<ValidOf<C>, A>
  readonly check: C
  /** The path after the base URL, URL-encoded, when it is not the row's (another row's form, a query). */
  readonly path?: ((valid: ValidOf<C>) => string) | undefined
  /** The JSON body; none when not given. */
  readonly body?: ((valid: ValidOf<C>) => unknown) | undefined
  /** A body sent as it is (a multipart form) instead of a JSON body. */
  readonly raw?: ((valid: ValidOf<C>) => RawBody) | undefined
  readonly response: Schema.Codec<A, I>
  /** A decoder of the answer faster than the schema's, to the same value; the schema's when not given. */
  readonly decode?: ResponseDecoder<A> | undefined
  /** The answer is JSON Lines, decoded as the array of its values. */
  readonly lines?: boolean | undefined
}

/** The path of an endpoint for a checked input: its `segment` (an identifier's) fills the template. */
const pathOf = (endpoint: { readonly path: string }, valid: unknown): string =>
  endpointPath(endpoint, (valid as Partial<PathId> | undefined)?.segment)

/** The call of a JSON operation, and its variant that gives the answer's metadata with the value. */
export interface JsonCall<In, A> {
  (input: In): Effect.Effect<A, RequestError, StudioClient>
  readonly withResponse: (input: In) => Effect.Effect<WithResponse<A>, RequestError, StudioClient>
}

/** The call of a JSON operation. */
export const json = <C extends Check<any, any>, A, I>(
  operation: JsonOperation<C, A, I>
): JsonCall<InputOf<C>, A> => {
  const { body, check, endpoint, lines, path, raw, response } = operation
  const { creates, method, name, responseAttributes } = endpoint
  const decode = operation.decode ?? responseDecoder(response)
  const spanName = `studio.${name}`
  const callWith = <B>(
    send: (client: Service, request: JsonRequest<A, I>) => Effect.Effect<B, RequestError>,
    valueOf: (answer: B) => A
  ) =>
  (input: InputOf<C>): Effect.Effect<B, RequestError, StudioClient> =>
    Effect.flatMap(
      check(name, input) as Effect.Effect<ValidOf<C>, ValidationError>,
      (valid) =>
        Effect.flatMap(StudioClient, (client) => {
          const sent = body === undefined ? undefined : body(valid)
          const call = send(client, {
            operation: name,
            method,
            path: path === undefined ? pathOf(endpoint, valid) : path(valid),
            body: sent,
            raw: raw === undefined ? undefined : raw(valid),
            response,
            decode,
            creates,
            lines
          })
          // an id in the attributes may come from an answer (a run polled after `create`): every value is
          // checked against the secrets before it reaches the span, as is every value of the answer
          return Effect.withSpan(
            responseAttributes === undefined ? call : Effect.tap(
              call,
              (answer) => Effect.annotateCurrentSpan(client.redactAttributes(responseAttributes(valueOf(answer)), sent))
            ),
            spanName,
            spanOptions(client.redactAttributes(endpoint.attributes(valid), sent))
          )
        })
    )
  const call = callWith((client, request) => client.json(request), (value) => value)
  return Object.assign(call, {
    withResponse: callWith((client, request) => client.jsonWithResponse(request), (answer) => answer.value)
  })
}

/** An operation whose answer is a stream of server-sent events, sent with `POST`. */
export interface StreamOperation<C extends Check<any, any>, A> {
  readonly endpoint: Endpoint<ValidOf<C>, never>
  readonly check: C
  readonly body: (valid: ValidOf<C>) => unknown
  /** One event's `data` as an output, or the error that ends the stream. */
  readonly parse: (data: string) => A | EventError<RequestError>
}

/**
 * The call of a streamed operation, and its variant that opens the stream in the caller's scope and gives
 * what the answer said when it opened with the stream of its events.
 */
export interface StreamCall<In, A> {
  (input: In): Stream.Stream<A, RequestError, StudioClient>
  readonly withResponse: (
    input: In
  ) => Effect.Effect<WithResponse<Stream.Stream<A, RequestError>>, RequestError, StudioClient | Scope.Scope>
}

/** The call of a streamed operation. */
export const stream = <C extends Check<any, any>, A>(
  operation: StreamOperation<C, A>
): StreamCall<InputOf<C>, A> => {
  const { body, check, endpoint, parse } = operation
  const { name } = endpoint
  const spanName = `studio.${name}`
  const open = <B>(
    send: (client: Service, request: StreamRequest) => Effect.Effect<B, RequestError, Scope.Scope>
  ) =>
  (input: InputOf<C>): Effect.Effect<B, RequestError, StudioClient | Scope.Scope> =>
    Effect.gen(function*() {
      const valid = yield* (check(name, input) as Effect.Effect<ValidOf<C>, ValidationError>)
      const client = yield* StudioClient
      // the span is the scope's (it ends with the stream, failed if the stream fails) and the parent of the
      // connection; the reads run outside it, so that none pays for a span of its own
      const sent = body(valid)
      const span = yield* Effect.makeSpanScoped(
        spanName,
        spanOptions(client.redactAttributes(endpoint.attributes(valid), sent))
      )
      return yield* Effect.withParentSpan(
        send(client, { operation: name, path: pathOf(endpoint, valid), body: sent }),
        span,
        { captureStackTrace: false }
      )
    })
  const events = open((client, request) => client.openEvents(request, parse))
  return Object.assign((input: InputOf<C>) => Stream.unwrap(events(input)), {
    withResponse: open((client, request) => client.openEventsWithResponse(request, parse))
  })
}
