import type * as Context from "effect/Context"
import type * as Metric from "effect/Metric"

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
