/**
 * The polling schedule of `maestro-run.ts`: every 2 s at first, then less often, never more than 5 s apart.
 * Capping a schedule's delay is written differently on Effect 3 (`effect3/pollSchedule.ts`).
 */
import { Duration, Effect, Schedule } from "effect"

export const pollEvery2To5Seconds = Schedule.exponential("2 seconds", 1.5).pipe(
  Schedule.modifyDelay(({ duration }) => Effect.succeed(Duration.min(duration, Duration.seconds(5))))
)
