/**
 * The headers a client sends on every request unless a call sets its own, and the order they override each
 * other in.
 */
import { describe, expect, it } from "vitest"
import { defaultHeaders } from "../src/wire/defaultHeaders.js"

describe("defaultHeaders", () => {
  it("sends the version, JSON and the bearer key, the user's own headers over them", () => {
    expect(defaultHeaders("1.2.3", "sk-1", undefined)).toEqual({
      "User-Agent": "studio-effect/1.2.3",
      "Accept": "application/json",
      "Authorization": "Bearer sk-1"
    })
    expect(defaultHeaders("1.2.3", "sk-1", { "Accept": "text/plain", "x-app": "a" })).toEqual({
      "User-Agent": "studio-effect/1.2.3",
      "Accept": "text/plain",
      "Authorization": "Bearer sk-1",
      "x-app": "a"
    })
  })

  it("has no Authorization without a key", () => {
    expect(Object.keys(defaultHeaders("1.2.3", undefined, {}))).toEqual(["User-Agent", "Accept"])
  })
})
