import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"

/**
 * Counts every fiber started with it in its context: provide it as `Metric.FiberRuntimeMetrics` (the hook the
 * runtime calls as each fiber starts and ends).
 */
export class ForkCounter implements Metric.FiberRuntimeMetricsService {
  count = 0
  recordFiberStart(_context: Context.Context<never>): void {
    this.count++
  }
  recordFiberEnd(): void {}
}

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
