/**
 * Server-sent events as the service frames them: `data: <json>` events separated by a blank line, ended by
 * `data: [DONE]`. A stream cut short because the service stops ends instead with an event carrying
 * `{"detail": ...}`, which no client takes for a complete answer.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const encoder = new TextEncoder()

/** One event carrying a JSON value. */
export const event = (value: unknown): Uint8Array => encoder.encode(`data: ${JSON.stringify(value)}\n\n`)

/** The event that ends a stream. */
export const done: Uint8Array = encoder.encode("data: [DONE]\n\n")

/**
 * The events of `values` followed by `[DONE]`; when `stopping` completes first, the stream ends at once
 * with one event carrying `{"detail": stoppedDetail}`.
 */
export const encode = <E, R>(
  values: Stream.Stream<unknown, E, R>,
  stopping: Effect.Effect<void> = Effect.never,
  stoppedDetail = ""
): Stream.Stream<Uint8Array, E, R> =>
  Stream.suspend(() => {
    let complete = false
    const events = Stream.concat(
      Stream.map(values, event),
      Stream.sync(() => {
        complete = true
        return done
      })
    )
    return Stream.concat(
      Stream.interruptWhen(events, stopping),
      Stream.suspend(() => complete ? Stream.empty : Stream.succeed(event({ detail: stoppedDetail })))
    )
  })
