/**
 * What `studio-effect serve` reads and says: its bounds, its `--rate-limit` values, the keys of its key file
 * and environment variable, and why it could not start.
 */
import * as fc from "fast-check"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as fs from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import {
  acceptedKeys,
  cannotStartMessage,
  keysOfVariable,
  listeningLines,
  parseRateLimit,
  portRefusal,
  readKeyFile,
  wholeNumberOptions,
  wholeNumberRefusal
} from "../../src/cli/serve.js"
import { maxApiKeyFileBytes } from "../../src/reference/apiKeys.js"

describe("bounds", () => {
  it("refuses a whole number below the option's minimum, naming the option", () => {
    expect(wholeNumberRefusal(wholeNumberOptions.seed, 0)).toBeUndefined()
    expect(wholeNumberRefusal(wholeNumberOptions.maxTenants, 0)).toBe(
      "--max-tenants needs a whole number of at least 1"
    )
  })

  it("takes a port from 0 to 65535", () => {
    expect(portRefusal(0)).toBeUndefined()
    expect(portRefusal(65535)).toBeUndefined()
    expect(portRefusal(65536)).toBe("--port needs a number from 0 to 65535")
    expect(portRefusal(-1)).toBeDefined()
  })
})

describe("parseRateLimit", () => {
  it("reads n and n/s, the window 60 seconds when not given", () => {
    expect(parseRateLimit("10")).toEqual({ _tag: "RateLimit", limit: 10, seconds: 60 })
    expect(parseRateLimit("10/2")).toEqual({ _tag: "RateLimit", limit: 10, seconds: 2 })
  })

  it.each(["", "x", "10/", "10/0", "-1", "1.5"])("refuses %j", (text) => {
    expect(parseRateLimit(text)).toEqual({
      _tag: "Invalid",
      message: `--rate-limit needs <requests> or <requests>/<seconds>, as in 10/2; got "${text}"`
    })
  })
})

describe("accepted keys", () => {
  const open = (path: string) => fs.open(path, "r")
  const dir = mkdtempSync(join(tmpdir(), "serve-keys-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("reads a key file, its refusals naming the flag and the path", async () => {
    const good = join(dir, "good")
    writeFileSync(good, "# keys\nk1\n\nk2\n")
    expect(await readKeyFile(good, open)).toEqual({ _tag: "Keys", keys: ["k1", "k2"] })
    const bad = join(dir, "bad")
    writeFileSync(bad, "a b\n")
    expect(await readKeyFile(bad, open)).toEqual({
      _tag: "Invalid",
      message: `--api-key-file ${bad}: line 1 holds whitespace inside a key`
    })
  })

  it("refuses a missing file with its error code, and a file too large with its size", async () => {
    const missing = join(dir, "missing")
    expect(await readKeyFile(missing, open)).toEqual({
      _tag: "Invalid",
      message: `Cannot read --api-key-file ${missing}: ENOENT`
    })
    const large = join(dir, "large")
    writeFileSync(large, "k".repeat(maxApiKeyFileBytes + 1))
    expect(await readKeyFile(large, open)).toEqual({
      _tag: "Invalid",
      message: `--api-key-file ${large} is ${maxApiKeyFileBytes + 1} bytes: the most read is ${maxApiKeyFileBytes}`
    })
  })

  it("names the variable in its refusal", () => {
    expect(keysOfVariable("a,b")).toEqual({ _tag: "Keys", keys: ["a", "b"] })
    expect(keysOfVariable("a b")).toEqual({
      _tag: "Invalid",
      message: "STUDIO_SERVE_API_KEYS: entry 1 holds whitespace inside a key"
    })
  })

  it("keeps each key once, and none as any bearer token", () => {
    expect(acceptedKeys(["a"], ["b", "a"], [])).toEqual(["a", "b"])
    expect(acceptedKeys([], [], [])).toBeUndefined()
  })
})

describe("listeningLines", () => {
  const none = { flags: 0, variable: 0, file: 0 }
  it("says where it listens, how many keys it takes, and the lines that point clients at it", () => {
    expect(listeningLines("http://h:1", undefined, none)).toEqual([
      "Studio reference service listening on http://h:1",
      "Base URL for clients: http://h:1 (the ai21 SDK: http://h:1/studio/v1)",
      "Any bearer token is accepted.",
      "Point the command and the SDK (StudioClient.layerConfig) at it, in another shell:",
      "  export STUDIO_BASE_URL=http://h:1",
      "  export STUDIO_API_KEY=any-key",
      "  studio-effect chat \"Hello\""
    ])
    expect(listeningLines("http://h:1", ["a", "b"], { ...none, variable: 2 })).toContain("Accepted keys: 2")
  })

  it("never prints an accepted key: it names where to take one", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^sk-[a-z0-9]{12,40}$/), { minLength: 1, maxLength: 4 }),
        fc.constantFrom("flags", "variable", "file"),
        (keys, source) => {
          const lines = listeningLines("http://h:1", keys, { ...none, [source]: keys.length }).join("\n")
          for (const key of keys) expect(lines).not.toContain(key)
          expect(lines).toMatch(/export STUDIO_API_KEY='<a-key-(given-with--api-key|of-\S+|of-the--api-key-file)>'/)
        }
      )
    )
  })
})

describe("cannotStartMessage", () => {
  const listen = { host: "127.0.0.1", port: 80 }
  it("says what to do for each error code", () => {
    expect(cannotStartMessage(listen, { code: "EADDRINUSE" })).toContain("the port is in use")
    expect(cannotStartMessage(listen, { code: "EADDRNOTAVAIL" })).toContain("is not an address of this machine")
    expect(cannotStartMessage(listen, { code: "EACCES" })).toContain("permission denied")
    expect(cannotStartMessage(listen, { code: "EAI_AGAIN" })).toBe(
      "Cannot serve on 127.0.0.1:80: the host 127.0.0.1 is not known. Check --host"
    )
    expect(cannotStartMessage(listen, "boom")).toBe("Cannot serve on 127.0.0.1:80: boom")
  })
})
