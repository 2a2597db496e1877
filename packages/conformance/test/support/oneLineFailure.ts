/**
 * How a program run as the docs run it (`NodeRuntime.runMain(program, StudioError.reportInOneLine)`) reports
 * a failure: one line on stderr, the error's tag and its message; nothing of it on stdout; a non-zero exit
 * code; and never the API key it was given.
 */
import { expect } from "@studio-effect/line"
import type { Ran } from "./runnable.js"

/** Checks that `ran` failed with `tag`, printed as the one line `Tag: message` holding `says`. */
export const expectOneLineFailure = (
  ran: Ran,
  failure: { readonly tag: string; readonly says: string; readonly apiKey: string },
  name: string
): void => {
  const lines = ran.stderr.split("\n").filter((line) => line.trim() !== "")
  expect(lines, `${name}: stderr is one line\n${ran.output}`).toHaveLength(1)
  expect(lines[0], name).toMatch(new RegExp(`^${failure.tag}: \\S`))
  expect(lines[0], name).toContain(failure.says)
  expect(ran.stdout, `${name}: the failure is not reported on stdout too`).not.toContain(failure.tag)
  expect(ran.output, `${name}: the key is never printed`).not.toContain(failure.apiKey)
  expect(ran.code, `${name}: the exit code`).not.toBe(0)
}
