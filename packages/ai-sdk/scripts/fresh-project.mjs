// The package as a user gets it: `npm pack` of studio-effect-core and studio-effect-ai-sdk (each built by its
// prepack) into a temporary directory, a fresh project that installs both tarballs with `ai` 7 and `zod` from
// the npm registry (the local cache first), no `effect` among its packages, and every sample of the README
// run in it (its types stripped by TypeScript's transpiler) against `studio-effect serve` of the Effect 4 line
// on 127.0.0.1.
//
//   node packages/ai-sdk/scripts/fresh-project.mjs      (on Node.js 22 or later)
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const root = join(packageDir, "../..")
const dir = mkdtempSync(join(tmpdir(), "studio-ai-sdk-fresh-"))
const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })

/** `studio-effect serve --port 0` from the Effect 4 line's sources; its URL and the process. */
const startServe = () =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=@studio-effect/source", "--import", "tsx", "test/support/serve-main.mjs", "serve", "--port", "0"],
      { cwd: packageDir, stdio: ["ignore", "pipe", "inherit"] }
    )
    let out = ""
    child.stdout.on("data", (data) => {
      out += String(data)
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match !== null) resolve({ child, url: match[1] })
    })
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)))
  })

try {
  const packed = JSON.parse(
    npm(["pack", "--json", "--pack-destination", dir, "-w", "studio-effect-core", "-w", "studio-effect-ai-sdk"], root)
  )
  const tarballs = packed.map((entry) => join(dir, entry.filename))
  for (const entry of packed) console.log(`packed ${entry.filename}: ${entry.entryCount} files, ${entry.size} bytes`)
  const project = join(dir, "project")
  execFileSync("mkdir", [project])
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "fresh", private: true, type: "module" }))
  npm(["install", "--no-audit", "--no-fund", "--prefer-offline", ...tarballs, "ai@7.0.173", "zod@4.6.7"], project)
  const installed = JSON.parse(npm(["ls", "--all", "--json"], project))
  const names = new Set()
  const walk = (deps) => {
    for (const [name, info] of Object.entries(deps ?? {})) {
      names.add(name)
      walk(info.dependencies)
    }
  }
  walk(installed.dependencies)
  if (names.has("effect")) throw new Error("effect is installed with studio-effect-ai-sdk")
  console.log(`installed ${names.size} packages, effect not among them`)
  // every sample of the README, its types stripped as a user's build would, run from the installed tarballs
  const readme = readFileSync(join(packageDir, "README.md"), "utf8")
  const samples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match, i) => {
    const name = `sample-${i + 1}.mjs`
    const js = ts.transpileModule(match[1], {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false }
    }).outputText
    writeFileSync(join(project, name), js)
    return name
  })
  const serve = await startServe()
  try {
    for (const name of samples) {
      const out = execFileSync(process.execPath, [name], {
        cwd: project,
        encoding: "utf8",
        env: { ...process.env, STUDIO_BASE_URL: serve.url, STUDIO_API_KEY: "anything" }
      })
      console.log(`${name} against serve: exit 0, ${out.trim().split("\n")[0].slice(0, 100)}`)
    }
    console.log(`every README sample (${samples.length}) ran from the packed tarballs`)
  } finally {
    serve.child.kill("SIGINT")
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
