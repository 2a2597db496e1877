// The guides (`docs/*.md`) and the examples (`examples/*.ts`) are held once, at the repository's root, for
// both Effect lines. A program that differs on Effect 3 has its Effect 3 version under `examples/effect3/`,
// by the same name. Each line's package ships its own set (git ignores the copies):
//
//   node scripts/guides.mjs copy <package dir>     writes the line's set into the package's docs/ and examples/
//   node scripts/guides.mjs remove <package dir>   removes them
//
// A line's set: every guide; every example, where the Effect 3 line takes `examples/effect3/<name>` in place of
// `examples/<name>`. `prepack` copies (and `postpack` removes), so `npm pack` and `npm publish` ship them.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const root = fileURLToPath(new URL("..", import.meta.url))

/** The line a package is (`effect3` or `effect4`), by the `effect` it peers on. */
export const lineOf = (packageDir) => {
  const manifest = JSON.parse(readFileSync(join(resolve(packageDir), "package.json"), "utf8"))
  return /^\D*3\./.test(manifest.peerDependencies?.effect ?? "") ? "effect3" : "effect4"
}

const filesIn = (dir, extension) =>
  existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(extension)).sort() : []

/**
 * The line's set: each file's path in the package (`docs/errors.md`, `examples/layer.ts`) and its source in
 * the repository (absolute).
 */
export const guideFiles = (line) => {
  const variants = line === "effect3" ? filesIn(join(root, "examples", "effect3"), ".ts") : []
  const examples = [...new Set([...filesIn(join(root, "examples"), ".ts"), ...variants])].sort()
  return [
    ...filesIn(join(root, "docs"), ".md").map((name) => ({ path: `docs/${name}`, source: join(root, "docs", name) })),
    ...examples.map((name) => ({
      path: `examples/${name}`,
      source: variants.includes(name) ? join(root, "examples", "effect3", name) : join(root, "examples", name)
    }))
  ]
}

/** Removes the package's copies of the guides and examples. */
export const removeGuides = (packageDir) => {
  for (const dir of ["docs", "examples"]) rmSync(join(resolve(packageDir), dir), { recursive: true, force: true })
}

/** Writes the line's set into the package (afresh); gives the paths written. */
export const copyGuides = (packageDir) => {
  removeGuides(packageDir)
  const files = guideFiles(lineOf(packageDir))
  for (const { path, source } of files) {
    const target = join(resolve(packageDir), path)
    mkdirSync(dirname(target), { recursive: true })
    copyFileSync(source, target)
  }
  return files.map(({ path }) => path)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, packageDir] = process.argv.slice(2)
  if (!["copy", "remove"].includes(command) || packageDir === undefined) {
    process.stderr.write("usage: node scripts/guides.mjs copy|remove <package dir>\n")
    process.exit(2)
  }
  if (command === "copy") copyGuides(packageDir)
  else removeGuides(packageDir)
}
