/**
 * Orchestration runs of the reference service on Effect's clock: a run is decided when it is created and
 * shown `in_progress` until enough time has passed on Effect's clock for its steps. Its status is computed
 * from the clock on every retrieve, so `TestClock` drives it and nothing sleeps. What a run comes to and
 * how the store keeps runs is `studio-effect-core/reference/runs`.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { Ids } from "studio-effect-core/reference/ids"
import * as Runs from "studio-effect-core/reference/runs"
import type { LibraryStore } from "./library.js"
import { type Model, runModel } from "./model.js"

/**
 * The runs of one service (see `Runs.makeRunStore`), each decided by `model` when it is created, from
 * what its file search finds in `library`, and shown as at the current time of Effect's clock.
 */
export const makeRunStore = (options: {
  readonly model: Model
  readonly seed: number
  readonly ids: Ids
  readonly library: LibraryStore
  readonly stepDuration: Duration.Duration
  readonly failRun?: Runs.RunFailure | undefined
  readonly maxRuns: number
  readonly maxRunsSize: number
}) => {
  const runs = Runs.makeRunStore({
    ids: options.ids,
    stepDuration: Duration.toMillis(options.stepDuration),
    failRun: options.failRun,
    maxRuns: options.maxRuns,
    maxRunsSize: options.maxRunsSize
  })

  const create = (run: Runs.RunConfiguration) =>
    Effect.gen(function*() {
      const filters = Runs.fileFiltersOf(run)
      const found = filters === undefined
        ? []
        : yield* options.library.searchFiles(Runs.inputText(run), filters, Runs.runSearchSegments)
      const draft = Runs.draftOf(run, options.seed, found)
      const reply = yield* runModel(options.model, draft.request, draft.context)
      const now = yield* Clock.currentTimeMillis
      return runs.create(run, draft, reply, now, found)
    })

  const retrieve = (id: string) => Effect.map(Clock.currentTimeMillis, (now) => runs.retrieve(id, now))

  return { create, retrieve }
}
