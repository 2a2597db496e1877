/**
 * The published package's own facts on the Effect 3 line: its dependencies and peers, the Node.js it runs on,
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

describe("the package as published, Effect 3 line", () => {
  it("the command's dependencies are the Effect 3 line, peers are the README's versions", () => {
    expect(packageJson.dependencies["@effect/cli"]).toMatch(/^\^0\.77\./)
    expect(packageJson.dependencies["@effect/printer"]).toMatch(/^\^0\.51\./)
    expect(packageJson.dependencies["@effect/printer-ansi"]).toMatch(/^\^0\.51\./)
    expect(packageJson.peerDependencies.effect).toMatch(/^\^3\.22\./)
    expect(packageJson.peerDependencies["@effect/platform"]).toMatch(/^\^0\.97\./)
    expect(packageJson.peerDependencies["@effect/platform-node"]).toMatch(/^\^0\.108\./)
    expect(readme).toContain("npm install @effect/platform-node@^0.108")
  })

  it("the README installs it under its effect3 tag over effect 3, and any module resolution sees its types", () => {
    expect(packageJson.publishAs).toBe("studio-effect")
    expect(packageJson.publishTag).toBe("effect3")
    expect(installLine).toBe("npm install studio-effect@effect3 effect@^3.22 @effect/platform@^0.97")
    expect(runMainInstallLine).toBe("npm install @effect/platform-node@^0.108")
    expect(readme).not.toContain(moduleResolutionNote)
  })

  it("its optional entries, studio-effect/ai and studio-effect/undici, need @effect/ai and undici", () => {
    expect(Object.keys(packageJson.exports)).toEqual([
      ".",
      "./reference",
      "./ai",
      "./promise",
      "./workflow",
      "./undici"
    ])
    for (const peer of ["@effect/ai", "@effect/platform-node", "@effect/workflow", "undici"]) {
      expect(packageJson.peerDependenciesMeta[peer]?.optional, peer).toBe(true)
    }
    // the ranges their install lines name (the newcomer's test sees each entry name its own)
    expect(packageJson.peerDependencies["@effect/ai"]).toBe("~0.37.0")
    expect(packageJson.peerDependencies["undici"]).toMatch(/^\^7\./)
  })
})
