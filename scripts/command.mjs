// Bundles a line's command: dist/cli/main.js, built by tsc, and everything it imports (Effect, the core, the
// platform) into dist/command/, one module for the start and a chunk for each module a subcommand loads when it
// first needs it (src/cli/modules.ts). The package's bin runs dist/command/main.js.
//
//   node scripts/command.mjs <package dir>     (each line's `npm run build` runs it after tsc)
//
// Measured reason (`studio-effect --version`, Node.js 24, 20 runs each paired with the same command run from
// dist/cli/ unbundled, both with Node's compile cache): the command's start loads some 260 modules one by one,
// and Node's module loader costs more than running them. Bundled, the start takes 146 against 462 ms on the
// Effect 4 line (0.31×), and 270 against 1,216 ms on the Effect 3 line (0.22×).
import { build } from "esbuild"
import { rmSync } from "node:fs"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"

/** The oldest Node.js each line supports, as esbuild's target. */
const targets = { effect3: "node20", effect4: "node22" }

/** Writes the bundle of the package's command into `<package dir>/dist/command/`. */
export const bundleCommand = async (packageDir, line) => {
  const outdir = join(resolve(packageDir), "dist", "command")
  rmSync(outdir, { recursive: true, force: true })
  await build({
    entryPoints: { main: join(resolve(packageDir), "dist", "cli", "main.js") },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: targets[line],
    // CommonJS dependencies (`ws`, under the reference service's server) call `require` for Node's modules,
    // which an ES module has not got: give the bundle one.
    banner: {
      js:
        "import { createRequire as __createRequire } from \"node:module\"\nconst require = __createRequire(import.meta.url)"
    },
    logLevel: "warning"
  })
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { lineOf } = await import("./guides.mjs")
  const packageDir = process.argv[2] ?? "."
  await bundleCommand(packageDir, lineOf(packageDir))
}
