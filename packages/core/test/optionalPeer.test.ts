/**
 * An optional peer dependency that is missing is named with its install line; any other failure to load is
 * left as it is. (Each line's package test imports its optional parts without their packages.)
 */
import { describe, expect, it } from "vitest"
import { loadWithPeer } from "../src/platform/optionalPeer.js"

const missing = (name: string) =>
  Object.assign(new Error(`Cannot find package '${name}' imported from /app/dist/ai/provider.js`), {
    code: "ERR_MODULE_NOT_FOUND"
  })

const peer = { user: "studio-effect/ai", peer: "@effect/ai", install: "npm install @effect/ai@~0.37.0" }

describe("loadWithPeer", () => {
  it("gives the module when it loads", async () => {
    await expect(loadWithPeer(() => Promise.resolve({ ok: 1 }), peer)).resolves.toEqual({ ok: 1 })
  })

  it("names what needs the missing peer and the line that installs it, keeping the code and the cause", async () => {
    const cause = missing("@effect/ai")
    const error = await loadWithPeer(() => Promise.reject(cause), peer).catch((e: unknown) => e)
    expect((error as Error).message).toBe(
      "studio-effect/ai needs @effect/ai, an optional dependency: npm install @effect/ai@~0.37.0"
    )
    expect((error as { code?: string }).code).toBe("ERR_MODULE_NOT_FOUND")
    expect((error as Error).cause).toBe(cause)
  })

  it("leaves any other failure as it is: another missing package, or an error of the module itself", async () => {
    for (const cause of [missing("@effect/ai-extra"), missing("effect"), new SyntaxError("Unexpected token")]) {
      await expect(loadWithPeer(() => Promise.reject(cause), peer)).rejects.toBe(cause)
    }
  })
})
