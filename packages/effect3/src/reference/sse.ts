/**
 * The reference service's event streams, framed by the core's encoder. A stream cut short because the
 * service stops ends instead with an event carrying `{"detail": ...}`, which no client takes for a complete
 * answer.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as SseEncoder from "studio-effect-core/sse/SseEncoder"

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
      Stream.map(values, SseEncoder.event),
      Stream.sync(() => {
        complete = true
        return SseEncoder.done
      })
    )
    return Stream.concat(
      Stream.interruptWhen(events, stopping),
      Stream.suspend(() => complete ? Stream.empty : Stream.succeed(SseEncoder.event({ detail: stoppedDetail })))
    )
  })
