import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"

/** Fibers started and ended, as counted by `countFibers`. */
export interface FiberCount {
  started: number
  ended: number
}

/** Runs `effect`, counting in `count` every fiber it starts and ends (the runtime's fiber metrics hook). */
export const countFibers = <A, E, R>(effect: Effect.Effect<A, E, R>, count: FiberCount): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, Metric.FiberRuntimeMetrics, {
    recordFiberStart: () => {
      count.started++
    },
    recordFiberEnd: () => {
      count.ended++
    }
  })
