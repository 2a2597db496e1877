// Packs a package of this repository as it is published: `node scripts/pack.mjs <package> <destination>`, the
// package by its folder or its name in packages/ (`effect4`, `effect3`, `core`). A line's package ships the
// guides and examples held at the repository's root (its set, see guides.mjs), copied in as `prepack` does.
// A package whose package.json has `publishAs` (the Effect 3 line, named `studio-effect-effect3` in the
// repository, since npm workspaces need distinct names) is staged under that name first, with the same files;
// `publishTag` is the dist-tag to publish it with (`npm publish <staged dir> --tag <publishTag>`). The package
// must be built (`npm run build` in it): one whose entries or bin are missing, or older than its sources, is
// refused. Prints the tarball's path.
import { execFile } from "node:child_process"
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"
import { copyGuides, removeGuides, root } from "./guides.mjs"

/** Every file a manifest's `exports` and `bin` point at. */
const entryFiles = (manifest) => {
  const targets = (value) =>
    typeof value === "string" ? [value] : value === null || typeof value !== "object" ? [] : Object.values(value)
      .flatMap(targets)
  const bin = typeof manifest.bin === "string" ? [manifest.bin] : Object.values(manifest.bin ?? {})
  return [...new Set([...targets(manifest.exports ?? {}), ...bin])].filter((file) => !file.includes("*"))
}

/** The modification times of the files under `dir`. */
const modified = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs)
    : []

/** The newest modification time under `dir` (0 when it holds no file). */
const newest = (dir) => Math.max(0, ...modified(dir))

/** The oldest modification time under `dir`, or `undefined` when it holds no file. */
const oldest = (dir) => {
  const times = modified(dir)
  return times.length === 0 ? undefined : Math.min(...times)
}

/** Refuses a package whose entries are missing or were built before its sources last changed. */
const assertBuilt = (dir, manifest) => {
  const files = entryFiles(manifest)
  const missing = files.filter((file) => !existsSync(join(dir, file)))
  const build = `run \`npm run build\` in ${dir} first`
  if (missing.length > 0) throw new Error(`${manifest.name} is not built (missing ${missing.join(", ")}): ${build}`)
  // a package whose exports are patterns (the core) is built when dist/ holds files
  const compiled = files.filter((file) => file.startsWith("./dist/")).map((file) => join(dir, file))
  const built = compiled.length > 0
    ? Math.min(...compiled.map((file) => statSync(file).mtimeMs))
    : oldest(join(dir, "dist"))
  if (built === undefined) throw new Error(`${manifest.name} is not built (no dist/): ${build}`)
  if (newest(join(dir, "src")) > built) {
    throw new Error(`${manifest.name} was built before its sources changed: ${build}`)
  }
}

export const pack = async (packageDir, destination) => {
  const named = join(root, "packages", packageDir)
  const dir = !existsSync(resolve(packageDir)) && existsSync(named) ? named : resolve(packageDir)
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  assertBuilt(dir, manifest)
  // `npm pack --ignore-scripts` runs no `prepack`: the guides are copied here, and removed after if they were not there
  const guides = manifest.scripts?.prepack?.includes("guides.mjs") === true
  const hadGuides = existsSync(join(dir, "docs"))
  if (guides) copyGuides(dir)
  try {
    return await packAt(dir, manifest, destination)
  } finally {
    if (guides && !hadGuides) removeGuides(dir)
  }
}

// npm runs asynchronously: a test that packs goes on answering its runner meanwhile
const npm = async (args, cwd) =>
  JSON.parse((await promisify(execFile)("npm", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })).stdout)[0]

const packAt = async (dir, manifest, destination) => {
  const npmPack = async (from) =>
    (await npm(["pack", "--json", "--ignore-scripts", "--pack-destination", resolve(destination), from])).filename
  if (manifest.publishAs === undefined) return join(resolve(destination), await npmPack(dir))
  const listed = (await npm(["pack", "--dry-run", "--json", "--ignore-scripts"], dir)).files
  const stage = mkdtempSync(join(tmpdir(), "studio-effect-stage-"))
  try {
    for (const { path } of listed) cpSync(join(dir, path), join(stage, path))
    const { publishAs, publishTag: _, ...rest } = manifest
    writeFileSync(join(stage, "package.json"), `${JSON.stringify({ ...rest, name: publishAs }, null, 2)}\n`)
    return join(resolve(destination), await npmPack(stage))
  } finally {
    rmSync(stage, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [packageDir, destination = "."] = process.argv.slice(2)
  if (packageDir === undefined) {
    process.stderr.write("usage: node scripts/pack.mjs <package dir> [destination]\n")
    process.exit(2)
  }
  try {
    console.log(await pack(packageDir, destination))
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
}
