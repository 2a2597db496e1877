#!/usr/bin/env node
// The package's command (`studio-effect --help`): runs the compiled command in dist/, which the package
// ships built. In a clone of the repository, build it first with `npm run build`.
import { existsSync } from "node:fs"

const entry = new URL("../dist/cli/main.js", import.meta.url)
if (!existsSync(entry)) {
  process.stderr.write("studio-effect: dist/cli/main.js is missing: run `npm run build` in the package first\n")
  process.exit(1)
}
const cli = await import(entry.href)
cli.main(process.argv)
