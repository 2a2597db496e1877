/**
 * The package as published. The tarball's file list (`npm pack --dry-run`), and a newcomer's first steps
 * from the packed tarball in a fresh project: the README's install line as written (from the npm registry),
 * the README's main sample type-checked (NodeNext and Bundler resolution) and run against a reference
 * service on 127.0.0.1, and the `studio-effect` command through `npx`. dist/ is built by the global setup.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { guideFiles, lineOf } from "../../../scripts/guides.mjs"
import { pack } from "../../../scripts/pack.mjs"
import { packageFile } from "../../conformance/test/support/packageFile.js"
import * as Reference from "../src/reference/index.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
const readme = readFileSync(join(root, "README.md"), "utf8")

interface Result {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const exec = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: Record<string, string>; readonly timeout?: number }
) =>
  new Promise<Result>((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: { ...process.env, STUDIO_API_KEY: "", STUDIO_BASE_URL: "", NO_COLOR: "1", ...options.env },
        timeout: options.timeout ?? 120_000,
        maxBuffer: 64 * 1024 * 1024
      },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  })

const packedFiles = async (): Promise<ReadonlyArray<string>> => {
  const result = await exec("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root })
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout)[0].files.map((file: { readonly path: string }) => file.path)
}

describe("the tarball", () => {
  it("holds dist, sources, bin, docs, examples, README and LICENSE, and nothing of the repository's own", async () => {
    const files = await packedFiles()
    for (const file of ["package.json", "README.md", "LICENSE", "bin/studio-effect.mjs", "dist/cli/main.js"]) {
      expect(files).toContain(file)
    }
    // the guides and examples held at the repository's root: this line's set, copied in by `prepack`
    expect(files.filter((file) => /^(docs|examples)\//.test(file)).sort()).toEqual(
      guideFiles(lineOf(root)).map(({ path }) => path).sort()
    )
    for (const entry of Object.values(packageJson.exports) as ReadonlyArray<Record<string, string>>) {
      for (const target of Object.values(entry)) expect(files).toContain(target.replace(/^\.\//, ""))
    }
    const topLevel = new Set(files.map((file) => file.split("/")[0]))
    expect([...topLevel].sort()).toEqual(
      ["LICENSE", "README.md", "bin", "dist", "docs", "examples", "package.json", "src"]
    )
    // dist/ is built afresh: every module in it comes from a source file
    for (const file of files.filter((file) => file.startsWith("dist/") && file.endsWith(".js"))) {
      expect(files, `${file} has no source`).toContain(file.replace(/^dist\//, "src/").replace(/\.js$/, ".ts"))
    }
  })

  it("says where it comes from and builds before packing, never on install", () => {
    expect(packageJson.license).toBe("MIT")
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toMatch(/^MIT License/)
    expect(packageJson.repository.url).toMatch(/^git\+https:\/\//)
    expect(packageJson.homepage).toMatch(/^https:\/\//)
    for (const script of ["prepare", "preinstall", "install", "postinstall"]) {
      expect(packageJson.scripts[script], script).toBeUndefined()
    }
    expect(packageJson.scripts.prepack).toContain("npm run build")
  })

  it("the command's dependencies are the Effect 3 line, peers are the README's versions", () => {
    expect(packageJson.dependencies["@effect/cli"]).toMatch(/^\^0\.77\./)
    expect(packageJson.dependencies["@effect/printer"]).toMatch(/^\^0\.51\./)
    expect(packageJson.dependencies["@effect/printer-ansi"]).toMatch(/^\^0\.51\./)
    expect(packageJson.peerDependencies.effect).toMatch(/^\^3\.22\./)
    expect(packageJson.peerDependencies["@effect/platform"]).toMatch(/^\^0\.97\./)
    expect(packageJson.peerDependencies["@effect/platform-node"]).toMatch(/^\^0\.108\./)
    expect(readme).toContain("npm install @effect/platform-node@^0.108")
  })
})

/** stderr without npm's warnings about this machine's own npm configuration (printed by `npx` itself). */
const withoutNpmConfigWarnings = (stderr: string) =>
  stderr.split("\n").filter((line) => line.trim() !== "" && !/^npm warn Unknown \w+ config/.test(line)).join("\n")

/** The README's install line, and its main program (the first TypeScript block). */
const installLine = /^npm install studio-effect@effect3 .*$/m.exec(readme)?.[0]
const mainSample = /```ts\n([\s\S]*?)```/.exec(readme)?.[1]
/** The line that installs what the README's programs run with (`NodeRuntime.runMain`), given before the first. */
const runMainInstallLine = /^## Use\n[\s\S]*?`(npm install @effect\/platform-node@[^`]+)`/m.exec(readme)?.[1]

describe("a newcomer's first steps, from the packed tarball in a fresh project", () => {
  const project = mkdtempSync(join(tmpdir(), "studio-effect-fresh-"))
  const scope = Effect.runSync(Scope.make())
  let serviceUrl = ""

  beforeAll(async () => {
    const server = await Effect.runPromise(Scope.extend(Reference.listen({ port: 0 }), scope))
    serviceUrl = server.url
  })

  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(project, { recursive: true, force: true })
  })

  it("installs with the README's line, runs its main sample, and the command works through npx", async () => {
    expect(installLine).toBe("npm install studio-effect@effect3 effect@^3.22 @effect/platform@^0.97")
    expect(mainSample).toBeDefined()

    // the package as published, under its published name, and the core it depends on
    const tarball = pack(root, project)
    const coreTarball = pack(join(root, "../core"), project)
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "fresh-project", version: "1.0.0", private: true, type: "module" })
    )

    // the README's line as written, with the tarball in place of the registry's studio-effect
    const args = [
      coreTarball,
      ...installLine!.split(" ").slice(2).map((arg) => arg === "studio-effect@effect3" ? tarball : arg)
    ]
    const installed = await exec("npm", ["install", "--no-audit", "--no-fund", ...args], {
      cwd: project,
      timeout: 300_000
    })
    expect(installed.code, installed.stdout + installed.stderr).toBe(0)
    expect(installed.stderr).not.toMatch(/ERESOLVE|prepare/i)
    expect(existsSync(join(project, "node_modules/studio-effect/dist/index.js"))).toBe(true)
    expect(existsSync(join(project, "node_modules/@effect/platform-node"))).toBe(false)

    // a plain Node.js script on the Promise API, catching an error by its tag
    writeFileSync(
      join(project, "promise.mjs"),
      [
        `import { NotFound, Studio } from "studio-effect/promise"`,
        `const studio = new Studio()`,
        `const reply = await studio.chat.create({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] })`,
        `console.log("answer", reply.choices[0].message.content.length > 0)`,
        `try {`,
        `  await studio.assistants.retrieve("asst_missing")`,
        `} catch (error) {`,
        `  if (error._tag === "NotFound") console.log("caught", error._tag, error.status, error instanceof NotFound)`,
        `}`,
        `await studio.close()`
      ].join("\n")
    )
    const promised = await exec(process.execPath, ["promise.mjs"], {
      cwd: project,
      env: { STUDIO_BASE_URL: serviceUrl, STUDIO_API_KEY: "newcomer-key" }
    })
    expect(promised.code, promised.stderr).toBe(0)
    expect(promised.stdout).toBe("answer true\ncaught NotFound 404 true\n")

    // serving over HTTP without the optional @effect/platform-node names its install line
    writeFileSync(
      join(project, "listen.mjs"),
      [
        `import { Effect } from "effect"`,
        `import * as Reference from "studio-effect/reference"`,
        `const exit = await Effect.runPromiseExit(Effect.scoped(Reference.listen()))`,
        `if (exit._tag === "Failure") console.error(exit.cause.defect?.message ?? String(exit.cause))`
      ].join("\n")
    )
    const listened = await exec(process.execPath, ["listen.mjs"], { cwd: project })
    expect(listened.stderr).toContain("npm install @effect/platform-node@^0.108")

    // the optional parts of the Effect 3 line, imported without their package, name their install line
    const importing = (entry: string) =>
      exec(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(entry)})`], {
        cwd: project
      })
    expect(existsSync(join(project, "node_modules/@effect/ai"))).toBe(false)
    const ai = await importing("studio-effect/ai")
    expect(ai.code).not.toBe(0)
    expect(ai.stderr).toContain(
      "studio-effect/ai needs @effect/ai, an optional dependency: npm install @effect/ai@~0.37.0"
    )
    if (!existsSync(join(project, "node_modules/undici"))) {
      const undici = await importing("studio-effect/undici")
      expect(undici.code).not.toBe(0)
      expect(undici.stderr).toContain(
        "studio-effect/undici needs undici, an optional dependency: npm install undici@^7"
      )
    }

    const npx = (...command: ReadonlyArray<string>) => exec("npx", ["studio-effect", ...command], { cwd: project })
    const version = await npx("--version")
    expect(version.code, version.stderr).toBe(0)
    expect(version.stdout.trim()).toBe(packageJson.version)

    const chat = await npx("chat", "--reference", "Hello")
    expect(chat.code, chat.stderr).toBe(0)
    expect(chat.stdout).toContain("\"Hello\"")

    const run = await npx(
      "run",
      "--reference",
      "Write two tips",
      "--requirement",
      "list=Answer as a numbered list",
      "--budget",
      "medium"
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain("Write two tips")
    // the README's example passes its requirement
    expect(run.stdout).toMatch(/^list\s+1\.00/m)

    // serving needs the optional @effect/platform-node, which the README's first line does not install
    const serve = await npx("serve", "--port", "0")
    expect(serve.code).not.toBe(0)
    expect(withoutNpmConfigWarnings(serve.stderr)).toBe(
      "studio-effect: studio-effect serve needs @effect/platform-node, an optional dependency: " +
        "npm install @effect/platform-node@^0.108"
    )

    // the README's programs run with NodeRuntime.runMain: its line installs @effect/platform-node
    expect(runMainInstallLine).toBe("npm install @effect/platform-node@^0.108")
    const platformNode = await exec("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      ...runMainInstallLine!.split(" ").slice(2)
    ], {
      cwd: project,
      timeout: 300_000
    })
    expect(platformNode.code, platformNode.stdout + platformNode.stderr).toBe(0)
    expect(platformNode.stderr).not.toMatch(/ERESOLVE/i)

    writeFileSync(join(project, "main.ts"), mainSample!)
    const tsc = packageFile("typescript", "bin/tsc")
    const resolutions = {
      NodeNext: { module: "NodeNext", moduleResolution: "NodeNext", outDir: "out" },
      Bundler: { module: "ESNext", moduleResolution: "Bundler", noEmit: true },
      // the resolution of older projects, which reads `types` and `typesVersions` instead of `exports`
      Node10: { module: "ESNext", moduleResolution: "node", noEmit: true }
    }
    for (const [name, options] of Object.entries(resolutions)) {
      const compilerOptions = { strict: true, target: "ES2022", lib: ["ES2022", "DOM"], skipLibCheck: true, ...options }
      writeFileSync(
        join(project, `tsconfig.${name}.json`),
        JSON.stringify({ compilerOptions: { ...compilerOptions, types: [] }, files: ["main.ts"] })
      )
      const checked = await exec(process.execPath, [tsc, "-p", `tsconfig.${name}.json`], { cwd: project })
      expect(checked.code, `${name}: ${checked.stdout}`).toBe(0)
    }
    const ran = await exec(process.execPath, ["out/main.js"], {
      cwd: project,
      env: { STUDIO_BASE_URL: serviceUrl, STUDIO_API_KEY: "newcomer-key" }
    })
    expect(ran.code, ran.stderr).toBe(0)
    expect(ran.stdout).toContain("reference service")
    expect(ran.stdout).toContain("completed")

    // with no key, the same program runs against the embedded reference service, and says so
    const keyless = await exec(process.execPath, ["out/main.js"], { cwd: project, env: { STUDIO_API_KEY: "" } })
    expect(keyless.code, keyless.stderr).toBe(0)
    expect(keyless.stdout).toContain("completed")
    expect(keyless.stdout + keyless.stderr).toContain("reference service embedded in memory")
  }, 600_000)
})
