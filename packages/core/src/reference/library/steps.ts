/**
 * Work done in steps of bounded size: whoever runs it may give way to other work between two steps, so a
 * long search of the library never holds the service for its whole length.
 */

/** Work in steps: `next` does one step and says whether the work is done; `result` is read once it is. */
export interface Steps<A> {
  readonly next: () => boolean
  readonly result: () => A
}

/** Runs every step at once and gives the result (where nothing else waits, as in the core's own tests). */
export const runAll = <A>(steps: Steps<A>): A => {
  while (!steps.next()) {
    // each step is bounded; nothing to give way to here
  }
  return steps.result()
}
