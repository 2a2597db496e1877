// Bundles a line's dist/, as tsc built it, with esbuild. Each line's `npm run build` runs it after tsc.
//
//   node scripts/bundle.mjs <package dir>
//
// - The command: dist/cli/main.js and everything it imports (Effect, the core, the platform) go into
//   dist/command/, one module for the start and a chunk for each module a subcommand loads when it first needs it
//   (src/cli/modules.ts). The package's bin runs dist/command/main.js.
//   Measured reason (`studio-effect --version`, Node.js 24, 20 runs each paired with the same command run from
//   dist/cli/ unbundled, both with Node's compile cache): the command's start loads some 260 modules one by one,
//   and Node's module loader costs more than running them. Bundled, the start takes 146 against 462 ms on the
//   Effect 4 line (0.31×), and 270 against 1,216 ms on the Effect 3 line (0.22×).
// - The library: each entry of the package's `exports` becomes one module at the path it names, holding the
//   line's modules and the core's that it needs; code two entries share goes into dist/chunks/, so that both
//   load the same classes and services. Effect and every other package stay imports. The declarations stay as
//   tsc wrote them, one per source module.
//   Measured reason (`import "studio-effect"` in a fresh process, Node.js 24, 20-30 runs each paired with the
//   same import of the modules tsc wrote): it loaded the line's and the core's modules one by one (65 for the
//   main entry), and Node's module loader costs more for each than its code; bundled, the import takes 0.93× the
//   wall time on the Effect 4 line and 0.88× on the Effect 3 line. See bench/HISTORY.md, "The library bundled".
import { build } from "esbuild"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"

/** The oldest Node.js each line supports, as esbuild's target. */
const targets = { effect3: "node20", effect4: "node22" }

/** What both bundles share: ES modules for Node.js, code split into chunks. */
const common = (line) => ({
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: targets[line],
  logLevel: "warning"
})

/** Writes the bundle of the package's command into `<package dir>/dist/command/`. */
export const bundleCommand = async (packageDir, line) => {
  const outdir = join(resolve(packageDir), "dist", "command")
  rmSync(outdir, { recursive: true, force: true })
  await build({
    entryPoints: { main: join(resolve(packageDir), "dist", "cli", "main.js") },
    outdir,
    ...common(line),
    // CommonJS dependencies (`ws`, under the reference service's server) call `require` for Node's modules,
    // which an ES module has not got: give the bundle one.
    banner: {
      js:
        "import { createRequire as __createRequire } from \"node:module\"\nconst require = __createRequire(import.meta.url)"
    }
  })
}

/**
 * Replaces the modules tsc wrote into `<package dir>/dist/` (but for the command's bundle) with one module for
 * each entry of the package's `exports` and the chunks they share; run after `bundleCommand`, which reads them.
 */
export const bundleLibrary = async (packageDir, line) => {
  const dir = resolve(packageDir)
  const dist = join(dir, "dist")
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  const entryPoints = Object.fromEntries(
    Object.values(manifest.exports).map(({ default: file }) => {
      const name = file.replace(/^\.\/dist\//, "").replace(/\.js$/, "")
      return [name, join(dist, `${name}.js`)]
    })
  )
  const packages = Object.keys({
    ...manifest.dependencies,
    ...manifest.peerDependencies,
    ...manifest.optionalDependencies
  }).filter((name) => name !== "studio-effect-core")
  // written once every module tsc wrote is read and removed: an entry replaces the module of the same path
  const { outputFiles } = await build({
    entryPoints,
    outdir: dist,
    write: false,
    allowOverwrite: true,
    ...common(line),
    chunkNames: "chunks/[name]-[hash]",
    external: packages.flatMap((name) => [name, `${name}/*`]),
    // No `keepNames`: it wraps every function the code makes in a call that defines its `name` (881 places in
    // the Effect 4 library), which the hot paths then pay on each call; where two modules' names meet, a
    // function keeps the bundle's name for it (`create2`), which no caller reads, and no class has met another.
    // Measured reason (Node.js 24, each library built both ways, 10 × 500 short streams at c=16 and 10 × 2,000
    // requests at c=32 over `studio-effect/undici`, three processes each, with against without): Effect 4,
    // 347-365 against 333-360 µs of CPU a stream, 112-115 against 109-115 a request; Effect 3, within the
    // noise (1,102-1,234 against 1,140-1,169 a stream, 171-177 against 175-187 a request).
    // mapped back through tsc's maps to the sources, whose text the maps hold
    sourcemap: true
  })
  rmSync(join(dist, "chunks"), { recursive: true, force: true })
  for (const file of readdirSync(dist, { recursive: true })) {
    if (/\.js(\.map)?$/.test(file) && !file.startsWith("command/")) rmSync(join(dist, file))
  }
  for (const { contents, path } of outputFiles) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, contents)
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { lineOf } = await import("./guides.mjs")
  const packageDir = process.argv[2] ?? "."
  const line = lineOf(packageDir)
  await bundleCommand(packageDir, line)
  await bundleLibrary(packageDir, line)
}
