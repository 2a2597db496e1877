/**
 * The library of the reference service on Effect: the library of `studio-effect-core/reference/library/
 * library`, with times from Effect's clock, so that `TestClock` moves a file from `PROCESSING` to
 * `PROCESSED`. Every operation is one synchronous step of the core's, so none sees another's half-done write,
 * except a search: it runs in the core's steps of bounded work and gives way to other fibers (and, over a
 * socket, to other clients) between them, looking at the files there were when it began.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { ByteBudget } from "studio-effect-core/reference/byteBudget"
import type { Ids } from "studio-effect-core/reference/ids"
import * as Library from "studio-effect-core/reference/library/library"
import type { Steps } from "studio-effect-core/reference/library/steps"
import type { FileFilter, LibrarySearchRequest } from "studio-effect-core/wire/library"

/** Runs work step by step, giving way between steps (Effect's scheduler yields to the event loop). */
const stepByStep = <A>(steps: Steps<A>): Effect.Effect<A> =>
  Effect.gen(function*() {
    while (!steps.next()) yield* Effect.yieldNow
    return steps.result()
  })

/** The library of one service (see `Library.makeLibrary`), at the current time of Effect's clock. */
export const makeLibraryStore = (options: {
  readonly ids: Ids
  readonly limits: Library.LibraryLimits
  /** How long a file is `PROCESSING`, in milliseconds. */
  readonly processingDuration: number
  /** The bytes every library of the service holds together. */
  readonly budget: ByteBudget
}) => {
  const library = Library.makeLibrary(options)
  const now = <A>(f: (now: number) => A): Effect.Effect<A> => Effect.map(Clock.currentTimeMillis, f)
  return {
    upload: (upload: Library.Upload) => now((time) => library.upload(upload, time)),
    lookup: (fileId: string) => now((time) => library.lookup(fileId, time)),
    list: (filters: Library.ListFilters) => now((time) => library.list(filters, time)),
    update: (fileId: string, changes: Parameters<Library.Library["update"]>[1]) =>
      now((time) => library.update(fileId, changes, time)),
    remove: (fileId: string) => now((time) => library.remove(fileId, time)),
    search: (request: LibrarySearchRequest) => Effect.flatMap(now((time) => library.search(request, time)), stepByStep),
    /** The segments a run's file search finds for `query` in the files `filters` allow. */
    searchFiles: (query: string, filters: ReadonlyArray<FileFilter>, maxSegments: number) =>
      Effect.map(
        Effect.flatMap(now((time) => library.searchHits({ query, filters, maxSegments }, time)), stepByStep),
        (found) => found.hits
      ),
    /** Forgets every file at once, giving their bytes back to the service's budget (its tenant is forgotten). */
    clear: library.clear,
    batchStatus: (batchId: string) => now((time) => library.batchStatus(batchId, time)),
    download: (fileId: string) => Effect.sync(() => library.download(fileId)),
    parsed: (fileId: string) => now((time) => library.parsed(fileId, time))
  }
}

/** The library of one service. */
export type LibraryStore = ReturnType<typeof makeLibraryStore>
