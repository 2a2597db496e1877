// Packs a package of this repository as it is published: `node scripts/pack.mjs <package> <destination>`, the
// package by its folder or its name in packages/ (`effect4`, `effect3`, `core`). A line's package ships the
// guides and examples held at the repository's root (its set, see guides.mjs), copied in as `prepack` does.
// A package whose package.json has `publishAs` (the Effect 3 line, named `studio-effect-effect3` in the
// repository, since npm workspaces need distinct names) is staged under that name first, with the same files;
// `publishTag` is the dist-tag to publish it with (`npm publish <staged dir> --tag <publishTag>`). The package
// must be built; prints the tarball's path.
import { execFileSync } from "node:child_process"
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { copyGuides, removeGuides, root } from "./guides.mjs"

export const pack = (packageDir, destination) => {
  const named = join(root, "packages", packageDir)
  const dir = !existsSync(resolve(packageDir)) && existsSync(named) ? named : resolve(packageDir)
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  // `npm pack --ignore-scripts` runs no `prepack`: the guides are copied here, and removed after if they were not there
  const guides = manifest.scripts?.prepack?.includes("guides.mjs") === true
  const hadGuides = existsSync(join(dir, "docs"))
  if (guides) copyGuides(dir)
  try {
    return packAt(dir, manifest, destination)
  } finally {
    if (guides && !hadGuides) removeGuides(dir)
  }
}

const packAt = (dir, manifest, destination) => {
  const npmPack = (from) =>
    JSON.parse(
      execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", resolve(destination), from], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"]
      })
    )[0]
  if (manifest.publishAs === undefined) return join(resolve(destination), npmPack(dir).filename)
  const listed = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"]
    })
  )[0].files
  const stage = mkdtempSync(join(tmpdir(), "studio-effect-stage-"))
  try {
    for (const { path } of listed) cpSync(join(dir, path), join(stage, path))
    const { publishAs, publishTag: _, ...rest } = manifest
    writeFileSync(join(stage, "package.json"), `${JSON.stringify({ ...rest, name: publishAs }, null, 2)}\n`)
    return join(resolve(destination), npmPack(stage).filename)
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
  console.log(pack(packageDir, destination))
}
