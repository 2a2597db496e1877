/**
 * Running a request of the reference service through the faults its plan gives it: delays, then a drop or
 * a status in place of the answer; or the answer, then a late status or a body cut short.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { scheduleFaults } from "studio-effect-core/reference/faultPlan"
import { type ConnectionDropped, cutBody, dropConnection, type Fault } from "./faults.js"
import * as Wire from "./wire.js"

/** `answer` run through `faults`, in the order `scheduleFaults` gives. */
export const withFaults = <R>(
  faults: ReadonlyArray<Fault>,
  answer: Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, ConnectionDropped, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { after, cut, delays, first } = scheduleFaults(faults)
    for (const duration of delays) yield* Effect.sleep(duration)
    if (first?._tag === "Drop") return yield* dropConnection(request)
    if (first?._tag === "Status") {
      return Wire.detail(first.status, first.detail ?? "Injected fault.", first.headers ?? {})
    }
    const response = yield* answer
    if (after !== undefined) {
      if (after.delay !== undefined) yield* Effect.sleep(after.delay)
      if (after.status !== undefined) return Wire.detail(after.status, after.detail ?? "Injected fault.")
    }
    return cut === undefined ? response : yield* cutBody(request, response, cut)
  })
