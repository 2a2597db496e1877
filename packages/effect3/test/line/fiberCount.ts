import * as Effect from "effect/Effect"
import * as Supervisor from "effect/Supervisor"

/** Fibers started and ended, as counted by `countFibers`. */
export interface FiberCount {
  started: number
  ended: number
}

class CountingSupervisor extends Supervisor.AbstractSupervisor<void> {
  constructor(readonly count: FiberCount) {
    super()
  }
  get value() {
    return Effect.void
  }
  override onStart() {
    this.count.started++
  }
  override onEnd() {
    this.count.ended++
  }
}

/** Runs `effect`, counting in `count` every fiber it starts and ends (a `Supervisor`). */
export const countFibers = <A, E, R>(effect: Effect.Effect<A, E, R>, count: FiberCount): Effect.Effect<A, E, R> =>
  Effect.supervised(effect, new CountingSupervisor(count))
