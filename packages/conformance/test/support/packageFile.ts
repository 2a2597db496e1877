/** A file of a package as the line's package resolves it (hoisted to the root or in the line's package). */
import { packageDir } from "@studio-effect/line"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const require = createRequire(join(packageDir, "package.json"))

export const packageFile = (name: string, file: string): string =>
  join(dirname(require.resolve(`${name}/package.json`)), file)
