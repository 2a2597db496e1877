/**
 * The package as published. The tarball's file list (`npm pack --dry-run`), and a newcomer's first steps
 * from the packed tarball in a fresh project already on the Effect the README names: the README's install
 * line as written (from the npm registry) downgrades nothing, each entry imports or names the optional
 * dependency it needs, the README's main sample type-checks (NodeNext and Bundler resolution, and the older
 * `node` resolution as the README says) and runs against a reference service on 127.0.0.1, and the
 * `studio-effect` command works through `npx` and serves as installed. dist/ is built by the global setup. (The line's own facts,
 * its dependencies, peers and the README's exact lines, are the line's package.test.ts.)
 */
import { afterAll, beforeAll, describe, Effect, Exit, expect, it, line, packageDir, Scope } from "@studio-effect/line"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Reference from "studio-effect/reference"
import { guideFiles } from "../../../scripts/guides.mjs"
import { pack } from "../../../scripts/pack.mjs"
import { packageFile } from "./support/packageFile.js"
import { startServe, stop } from "./support/serve.js"

const root = packageDir
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
const readme = readFileSync(join(root, "README.md"), "utf8")

/** TypeScript's compiler, as the line's package resolves it. */
const tsc = packageFile("typescript", "bin/tsc")

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
    for (const file of ["package.json", "README.md", "LICENSE", "bin/studio-effect.mjs", "dist/command/main.js"]) {
      expect(files).toContain(file)
    }
    // the guides and examples held at the repository's root: this line's set, copied in when it is packed
    expect(files.filter((file) => /^(docs|examples)\//.test(file)).sort()).toEqual(
      guideFiles(line).map(({ path }) => path).sort()
    )
    for (const entry of Object.values(packageJson.exports) as ReadonlyArray<Record<string, string>>) {
      for (const target of Object.values(entry)) expect(files).toContain(target.replace(/^\.\//, ""))
    }
    const topLevel = new Set(files.map((file) => file.split("/")[0]))
    expect([...topLevel].sort()).toEqual(
      ["LICENSE", "README.md", "bin", "dist", "docs", "examples", "package.json", "src"]
    )
    // dist/ is built afresh: its modules are the bundles of the package's entries (each from its source file),
    // the chunks they share (dist/chunks/) and the command's bundle (dist/command/), which the build empties
    // first; every declaration comes from a source file
    const entries = (Object.values(packageJson.exports) as ReadonlyArray<Record<string, string>>).map((entry) =>
      entry.default!.replace(/^\.\//, "")
    )
    const bundled = (file: string) => /^dist\/(command|chunks)\//.test(file)
    for (const file of files.filter((file) => file.startsWith("dist/") && !bundled(file))) {
      if (file.endsWith(".js")) expect(entries, `${file} is no entry of the package`).toContain(file)
      const source = file.replace(/^dist\//, "src/").replace(/\.(d\.ts|js)$/, ".ts")
      if (/\.(d\.ts|js)$/.test(file)) expect(files, `${file} has no source`).toContain(source)
    }
  })

  it("ships its entries bundled, sharing one copy of each class and service among them", async () => {
    // each entry from dist/ by plain Node.js: the errors `studio-effect/promise` throws are the very classes of
    // `studio-effect`, and the reference service's client layer provides the `StudioClient` the main entry's
    // operations need
    const program = [
      "const Effect = await import(\"effect/Effect\")",
      "const main = await import(\"./dist/index.js\")",
      "const promise = await import(\"./dist/promise/index.js\")",
      "const reference = await import(\"./dist/reference/index.js\")",
      "const names = [\"AuthError\", \"ValidationError\", \"NotFound\"]",
      "const same = names.every((name) => main.StudioError[name] === promise[name])",
      "const models = await Effect.runPromise(Effect.provide(main.Models.list(), reference.layerClient()))",
      "process.stdout.write(JSON.stringify({ same, listed: models.data.length > 0 }))"
    ].join("\n")
    const result = await exec(process.execPath, ["--input-type=module", "--eval", program], { cwd: root })
    expect(result.stderr).toBe("")
    expect(JSON.parse(result.stdout)).toEqual({ same: true, listed: true })
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
})

/** The README's install line (of the package, under its dist-tag if it has one), and its main program. */
const installLine = /^npm install studio-effect(?:@\S+)? .*$/m.exec(readme)?.[0]
const mainSample = /```ts\n([\s\S]*?)```/.exec(readme)?.[1]
/** The line that installs what the README's programs run with (`NodeRuntime.runMain`), given before the first. */
const runMainInstallLine = /^## Use\n[\s\S]*?`(npm install @effect\/platform-node@[^`]+)`/m.exec(readme)?.[1]

/** The version of every package installed in a project, by its path in node_modules. */
const installedVersions = (project: string): ReadonlyMap<string, string> => {
  const lock = JSON.parse(readFileSync(join(project, "node_modules/.package-lock.json"), "utf8"))
  return new Map(
    Object.entries(lock.packages as Record<string, { readonly version?: string }>).flatMap(([path, entry]) =>
      entry.version === undefined ? [] : [[path, entry.version] as const]
    )
  )
}

/** Compares two versions by their release numbers (a prerelease is below its release). */
const compareVersions = (a: string, b: string): number => {
  const parse = (version: string) => {
    const [release = "", prerelease] = version.split("-", 2)
    return { numbers: release.split(".").map(Number), prerelease }
  }
  const left = parse(a)
  const right = parse(b)
  for (let i = 0; i < 3; i++) {
    const difference = (left.numbers[i] ?? 0) - (right.numbers[i] ?? 0)
    if (difference !== 0) return difference
  }
  if (left.prerelease === right.prerelease) return 0
  if (left.prerelease === undefined) return 1
  if (right.prerelease === undefined) return -1
  return left.prerelease < right.prerelease ? -1 : 1
}

/** The package itself in the install line, and the Effect it installs with it. */
const installArgs = installLine?.split(" ").slice(2) ?? []
const packageArg = installArgs.find((arg) => /^studio-effect(@|$)/.test(arg))
const effectArg = installArgs.find((arg) => arg.startsWith("effect@"))
const effectMajor = /\d+/.exec(packageJson.peerDependencies.effect)?.[0]

/** The README says the older `node` resolution cannot see the package's types (Effect 4's, and so its own). */
const needsModernResolution = readme.includes(
  "\"moduleResolution\"` set to `\"NodeNext\"`, `\"Node16\"` or `\"Bundler\"`"
)

/** The optional peers: each entry that needs one, imported without it, names its install line. */
const optionalPeers = Object.entries(
  (packageJson.peerDependenciesMeta ?? {}) as Record<string, { readonly optional?: boolean }>
).flatMap(([name, meta]) => meta.optional === true ? [name] : [])

describe("a newcomer's first steps, from the packed tarball in a fresh project on the line's Effect", () => {
  const project = mkdtempSync(join(tmpdir(), "studio-effect-fresh-"))
  const scope = Effect.runSync(Scope.make())
  let serviceUrl = ""

  beforeAll(async () => {
    const server = await Effect.runPromise(Effect.provideService(Reference.listen({ port: 0 }), Scope.Scope, scope))
    serviceUrl = server.url
  })

  // removing the project's node_modules takes seconds, more on a busy disk: the hook has the install's bound
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await rm(project, { recursive: true, force: true, maxRetries: 3 })
  }, 300_000)

  it(
    "installs with the README's line over the Effect it names, downgrading nothing, runs its main sample, and the command works through npx",
    async () => {
      expect(installLine).toBeDefined()
      expect(packageArg).toBeDefined()
      expect(effectArg).toBeDefined()
      expect(runMainInstallLine).toBeDefined()
      expect(mainSample).toBeDefined()

      // the package as published, under its published name, and the core it depends on
      const tarball = await pack(root, project)
      const coreTarball = await pack(join(root, "../core"), project)
      writeFileSync(
        join(project, "package.json"),
        JSON.stringify({ name: "fresh-project", version: "1.0.0", private: true, type: "module" })
      )

      // a project on the line's Effect: the registry's effect in the range the README names
      const effect = await exec("npm", ["install", "--no-audit", "--no-fund", effectArg!], {
        cwd: project,
        timeout: 300_000
      })
      expect(effect.code, effect.stdout + effect.stderr).toBe(0)
      const before = installedVersions(project)
      expect(before.get("node_modules/effect")?.split(".")[0]).toBe(effectMajor)

      // the README's line as written, with the tarball in place of the registry's studio-effect
      const args = [
        coreTarball,
        ...installLine!.split(" ").slice(2).map((arg) => arg === packageArg ? tarball : arg)
      ]
      const installed = await exec("npm", ["install", "--no-audit", "--no-fund", ...args], {
        cwd: project,
        timeout: 300_000
      })
      expect(installed.code, installed.stdout + installed.stderr).toBe(0)
      expect(installed.stderr).not.toMatch(/ERESOLVE|prepare/i)
      expect(existsSync(join(project, "node_modules/studio-effect/dist/index.js"))).toBe(true)
      expect(existsSync(join(project, "node_modules/@effect/platform-node"))).toBe(false)
      const after = installedVersions(project)
      for (const [path, version] of before) {
        expect(after.has(path), `${path} was removed`).toBe(true)
        expect(compareVersions(after.get(path)!, version), `${path} went from ${version} to ${after.get(path)}`)
          .toBeGreaterThanOrEqual(0)
      }

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
      expect(listened.stderr).toContain(runMainInstallLine)

      // each entry imports, or, when it needs an optional dependency the project lacks, names its install line
      const importing = (entry: string) =>
        exec(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(entry)})`], {
          cwd: project
        })
      const absent = (name: string) => !existsSync(join(project, "node_modules", name))
      const named: Array<string> = []
      for (const subpath of Object.keys(packageJson.exports)) {
        const entry = `studio-effect${subpath.slice(1)}`
        const imported = await importing(entry)
        if (imported.code === 0) continue
        const needs = new RegExp(
          `^(?:Error: )?${entry} needs (\\S+), an optional dependency: npm install (\\S+)@(\\S+)$`,
          "m"
        )
          .exec(imported.stderr)
        expect(needs, `${entry}: ${imported.stderr}`).not.toBeNull()
        const [, peer = "", installs, range = ""] = needs!
        expect(installs).toBe(peer)
        expect(optionalPeers).toContain(peer)
        expect(absent(peer), peer).toBe(true)
        // the range named is the peer range, or the peer range narrows it
        expect(packageJson.peerDependencies[peer].startsWith(range), `${peer}@${range}`).toBe(true)
        named.push(peer)
      }
      // every optional dependency the project lacks is named, but @effect/platform-node: only serving needs it
      expect(named.sort()).toEqual(
        optionalPeers.filter((peer) => peer !== "@effect/platform-node" && absent(peer)).sort()
      )

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

      // the command carries what serving needs: the README's first line is enough (run as installed, since
      // `npx` does not pass an interrupt on to the command)
      const command = [process.execPath, join(project, "node_modules", "studio-effect", "bin", "studio-effect.mjs")]
      const serve = await startServe(["--port", "0"], {}, { command, cwd: project })
      try {
        const models = await fetch(`${serve.url}/studio/v1/models`, { headers: { authorization: "Bearer any" } })
        expect(models.status).toBe(200)
      } finally {
        await stop(serve.child)
      }

      // the README's programs run with NodeRuntime.runMain: its line installs @effect/platform-node
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
      const resolutions = {
        NodeNext: { module: "NodeNext", moduleResolution: "NodeNext", outDir: "out" },
        Bundler: { module: "ESNext", moduleResolution: "Bundler", noEmit: true }
      }
      for (const [name, options] of Object.entries(resolutions)) {
        const compilerOptions = {
          strict: true,
          target: "ES2022",
          lib: ["ES2022", "DOM"],
          skipLibCheck: true,
          ...options
        }
        writeFileSync(
          join(project, `tsconfig.${name}.json`),
          JSON.stringify({ compilerOptions: { ...compilerOptions, types: [] }, files: ["main.ts"] })
        )
        const checked = await exec(process.execPath, [tsc, "-p", `tsconfig.${name}.json`], { cwd: project })
        expect(checked.code, `${name}: ${checked.stdout}`).toBe(0)
      }
      // the resolution of older projects, which reads `types` and `typesVersions` instead of `exports`: it sees
      // the package's types, unless the README says it cannot (Effect 4's own types need `exports`)
      writeFileSync(
        join(project, "tsconfig.Node10.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            target: "ES2022",
            lib: ["ES2022", "DOM"],
            skipLibCheck: true,
            module: "ESNext",
            moduleResolution: "node",
            noEmit: true,
            types: []
          },
          files: ["main.ts"]
        })
      )
      const node10 = await exec(process.execPath, [tsc, "-p", "tsconfig.Node10.json"], { cwd: project })
      if (needsModernResolution) {
        expect(node10.code).not.toBe(0)
        expect(node10.stdout).toContain("Cannot find module 'effect'")
      } else expect(node10.code, `Node10: ${node10.stdout}`).toBe(0)

      // every entry's published types check in a strict project with TypeScript's default skipLibCheck: false
      // (the optional peers and Node's types installed, as a user of those entries has them)
      const peers = await exec("npm", [
        "install",
        "--no-audit",
        "--no-fund",
        ...optionalPeers.map((name) => `${name}@${packageJson.peerDependencies[name]}`),
        `@types/node@${packageJson.devDependencies["@types/node"]}`
      ], { cwd: project, timeout: 300_000 })
      expect(peers.code, peers.stdout + peers.stderr).toBe(0)
      const entries = Object.keys(packageJson.exports as Record<string, unknown>).map((entry) =>
        entry === "." ? "studio-effect" : `studio-effect/${entry.slice(2)}`
      )
      writeFileSync(
        join(project, "entries.ts"),
        entries.map((entry, i) => `import * as entry${i} from "${entry}"\nexport { entry${i} }\n`).join("")
      )
      writeFileSync(
        join(project, "tsconfig.strict.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            target: "ES2022",
            lib: ["ES2022", "DOM"],
            module: "NodeNext",
            moduleResolution: "NodeNext",
            skipLibCheck: false,
            noEmit: true,
            types: ["node"]
          },
          files: ["entries.ts"]
        })
      )
      const strict = await exec(process.execPath, [tsc, "-p", "tsconfig.strict.json"], { cwd: project })
      // Effect's own declarations are not ours to check: only errors in this package's files fail it
      const ours = strict.stdout.split("\n").filter((line) => /node_modules\/studio-effect(-core)?\//.test(line))
      expect(ours, strict.stdout).toEqual([])

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
    },
    600_000
  )
})
