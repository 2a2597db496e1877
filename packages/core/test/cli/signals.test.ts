/**
 * The command's signals: SIGTERM, and SIGINT when nothing waits for Ctrl-C, interrupt it once; SIGINT wakes
 * what waits for Ctrl-C instead.
 */
import { afterEach, describe, expect, it } from "vitest"
import { handleSignals, waitForCtrlC } from "../../src/cli/signals.js"

describe("handleSignals", () => {
  const removals: Array<() => void> = []
  afterEach(() => removals.splice(0).forEach((remove) => remove()))

  const handled = () => {
    let interrupts = 0
    removals.push(handleSignals(process, () => interrupts++))
    return () => interrupts
  }

  it("interrupts once at SIGTERM, its handlers then removed", () => {
    const interrupts = handled()
    process.emit("SIGTERM", "SIGTERM")
    expect(interrupts()).toBe(1)
    expect(process.listenerCount("SIGTERM")).toBe(0)
  })

  it("hands SIGINT to what waits for Ctrl-C, and interrupts at the next one", () => {
    const interrupts = handled()
    let woken = 0
    waitForCtrlC(() => woken++)
    process.emit("SIGINT", "SIGINT")
    expect([woken, interrupts()]).toEqual([1, 0])
    process.emit("SIGINT", "SIGINT")
    expect([woken, interrupts()]).toEqual([1, 1])
  })

  it("interrupts at SIGINT once the wait is stopped", () => {
    const interrupts = handled()
    const stop = waitForCtrlC(() => expect.unreachable())
    stop()
    process.emit("SIGINT", "SIGINT")
    expect(interrupts()).toBe(1)
  })
})
