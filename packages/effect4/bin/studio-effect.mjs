#!/usr/bin/env node
// The package's command (`studio-effect --help`): runs the command's bundle in dist/command/ (scripts/bundle.mjs
// in the repository), which the package ships built. In a clone of the repository, build it first with
// `npm run build`.
import { existsSync } from "node:fs"
import module from "node:module"

// Node's on-disk compile cache (Node.js 22.1 and later; `NODE_COMPILE_CACHE` picks its folder and
// `NODE_DISABLE_COMPILE_CACHE=1` turns it off): the command's modules are compiled once, not at every
// start. Measured (`studio-effect --version`, Node.js 24, 20 runs, each paired with one without it): 0.80×
// the wall time on the Effect 4 line, 0.86× on the Effect 3 line.
module.enableCompileCache?.()

const entry = new URL("../dist/command/main.js", import.meta.url)
if (!existsSync(entry)) {
  process.stderr.write("studio-effect: dist/command/main.js is missing: run `npm run build` in the package first\n")
  process.exit(1)
}
const cli = await import(entry.href)
cli.main(process.argv)
