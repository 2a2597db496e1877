#!/usr/bin/env node
// The package's command: `studio-effect serve --port 8080` serves the reference service.
// It runs the compiled CLI in dist/ (built by the package's `prepare` script on install).
let cli
try {
  cli = await import("../dist/reference/cli.js")
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/reference/cli.js")) {
    process.stderr.write("studio-effect: dist/ is missing; run `npm run build` first.\n")
    process.exit(1)
  }
  throw error
}
cli.main(process.argv.slice(2))
