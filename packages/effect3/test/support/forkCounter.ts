import * as Effect from "effect/Effect"
import * as Supervisor from "effect/Supervisor"

/** Counts every fiber started under it. */
export class ForkCounter extends Supervisor.AbstractSupervisor<number> {
  count = 0
  get value() {
    return Effect.sync(() => this.count)
  }
  override onStart() {
    this.count++
  }
}
