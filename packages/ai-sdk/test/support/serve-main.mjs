// `studio-effect serve` of the Effect 4 line, run from its sources (with `--import tsx` and the
// `@studio-effect/source` condition): the same command as the built bin, without building it first.
const cli = await import("../../../effect4/src/cli/main.ts")
cli.main(process.argv)
