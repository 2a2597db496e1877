/**
 * Folders the tests write their files into: each a new folder in the OS temp directory, removed with all it
 * holds once the test (or the file) that made it is done, whether it passed or failed.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/**
 * Registers what runs once a test is done: the `onTestFinished` of its context (not vitest's global one, which
 * cannot tell concurrent tests apart), or `afterAll` for a folder the whole file uses.
 */
export type WhenDone = (done: () => void) => void

/** A new folder whose name starts with `prefix`, removed with all it holds by `whenDone`. */
export const tempDirectory = (prefix: string, whenDone: WhenDone): string => {
  const directory = mkdtempSync(join(tmpdir(), prefix))
  whenDone(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}
