/**
 * The polling schedule of `maestro-run.ts` on Effect 3: every 2 s at first, then less often, never more than
 * 5 s apart.
 */
import { Duration, Schedule } from "effect"

export const pollEvery2To5Seconds = Schedule.exponential("2 seconds", 1.5).pipe(
  Schedule.modifyDelay((_, delay) => Duration.min(delay, Duration.seconds(5)))
)
