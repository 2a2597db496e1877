/** A file of an installed package, wherever the workspace put it (hoisted to the root or in this package). */
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const require = createRequire(import.meta.url)

export const packageFile = (name: string, file: string): string =>
  join(dirname(require.resolve(`${name}/package.json`)), file)
