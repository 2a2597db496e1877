/**
 * Sizes as people write them, the check of a size limit, and the reason an error gives for what passed one.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { formatSize, sizeIssues, tooLargeReason } from "../src/bytes/sizeLimits.js"

describe("sizeLimits", () => {
  it("a size in MiB, KiB or bytes, whichever divides it", () => {
    expect(formatSize(32 * 1024 * 1024)).toBe("32 MiB")
    expect(formatSize(8 * 1024)).toBe("8 KiB")
    expect(formatSize(1500)).toBe("1500 bytes")
  })

  it("property: a limit is a size exactly when it is a whole number of at least 1", () =>
    fc.assert(fc.property(fc.oneof(fc.integer(), fc.double(), fc.constant(undefined)), (size) => {
      const issues = sizeIssues({ maxEventSize: size })
      expect(issues.length === 0).toBe(size === undefined || (Number.isSafeInteger(size) && size >= 1))
      for (const issue of issues) expect(issue.path).toBe("maxEventSize")
    })))

  it("the reason names what passed the limit, the option and what to do", () => {
    expect(tooLargeReason("maxUploadSize", 1024)).toBe(
      "the file is larger than 1 KiB (maxUploadSize): raise maxUploadSize to send it"
    )
    expect(tooLargeReason("maxEventSize", 8 * 1024 * 1024)).toMatch(/^an event is larger than 8 MiB \(maxEventSize\)/)
  })
})
