/**
 * The published package's own facts on the Effect 4 line: its dependencies and peers, the Node.js it runs on,
 * and the README's install lines and what it says of module resolution. (The tarball and a newcomer's first
 * steps from it are tested once for both lines, in the conformance suite's package.test.ts.)
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
const readme = readFileSync(join(root, "README.md"), "utf8")

/** The README's install line, and the line that installs what its programs run with (`NodeRuntime.runMain`). */
const installLine = /^npm install studio-effect(?:@\S+)? .*$/m.exec(readme)?.[0]
const runMainInstallLine = /^## Use\n[\s\S]*?`(npm install @effect\/platform-node@[^`]+)`/m.exec(readme)?.[1]
const moduleResolutionNote = "\"moduleResolution\"` set to `\"NodeNext\"`, `\"Node16\"` or `\"Bundler\"`"

describe("the package as published, Effect 4 line", () => {
  it("the command needs nothing but effect; peers are the README's versions of the Effect 4 line", () => {
    // effect/cli and effect/ai are part of effect: the only regular dependency is the shared core
    expect(Object.keys(packageJson.dependencies)).toEqual(["studio-effect-core"])
    expect(packageJson.peerDependencies.effect).toMatch(/^\^4\.1\./)
    expect(packageJson.peerDependencies["@effect/platform-node"]).toMatch(/^\^4\.1\./)
    expect(packageJson.peerDependenciesMeta["@effect/platform-node"].optional).toBe(true)
    expect(packageJson.engines.node).toBe(">=22.19.0")
    expect(readme).toContain("npm install @effect/platform-node@^4.1")
    expect(readme).toContain("Node.js 22.19")
  })

  it("the README installs it as studio-effect over effect 4, and says the older module resolution cannot see its types", () => {
    expect(packageJson.name).toBe("studio-effect")
    expect(installLine).toBe("npm install studio-effect effect@^4.1")
    expect(runMainInstallLine).toBe("npm install @effect/platform-node@^4.1")
    // Effect 4's own types need `exports`: the older `node` resolution cannot see them, nor this package's
    expect(readme).toContain(moduleResolutionNote)
    expect(Object.keys(packageJson.exports)).toEqual([
      ".",
      "./reference",
      "./ai",
      "./promise",
      "./workflow",
      "./undici"
    ])
  })

  it("its optional entry, studio-effect/undici, needs undici", () => {
    expect(Object.keys(packageJson.exports)).toContain("./undici")
    expect(packageJson.peerDependenciesMeta["undici"]?.optional).toBe(true)
    // undici 8 runs on the Node.js this line needs (22.19); the Effect 3 line takes undici 7
    expect(packageJson.peerDependencies["undici"]).toMatch(/^\^8\./)
  })
})
