// Runs a command with a Node.js of at least the given version first on PATH:
// `node scripts/with-node.mjs 22.19.0 npm run demo -w studio-effect` (see scripts/node.mjs).
import { spawnSync } from "node:child_process"
import { dirname } from "node:path"
import { nodeAtLeast } from "./node.mjs"

const [minimum, command, ...args] = process.argv.slice(2)
if (minimum === undefined || command === undefined) {
  process.stderr.write("usage: node scripts/with-node.mjs <minimum version> <command> [arguments]\n")
  process.exit(2)
}
const node = nodeAtLeast(minimum)
const result = spawnSync(command, args, {
  stdio: "inherit",
  env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` }
})
process.exit(result.status ?? 1)
