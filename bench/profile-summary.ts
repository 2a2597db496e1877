/**
 * Prints the functions with the most self time in a `.cpuprofile` (from `node --cpu-prof`):
 * `npx tsx bench/profile-summary.ts <file> [rows]`.
 */
import { readFileSync } from "node:fs"

interface Node {
  readonly id: number
  readonly callFrame: { functionName: string; url: string; lineNumber: number }
  readonly hitCount?: number
}

const [file, rows = "30"] = process.argv.slice(2)
const profile = JSON.parse(readFileSync(file!, "utf8")) as { nodes: Array<Node>; samples: Array<number> }
const byNode = new Map<number, number>()
for (const sample of profile.samples) byNode.set(sample, (byNode.get(sample) ?? 0) + 1)
const total = profile.samples.length
const self = new Map<string, number>()
for (const node of profile.nodes) {
  const { functionName, lineNumber, url } = node.callFrame
  const key = `${functionName || "(anonymous)"} ${
    url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/main\//, "")
  }:${lineNumber + 1}`
  self.set(key, (self.get(key) ?? 0) + (byNode.get(node.id) ?? 0))
}
for (const [key, count] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) {
  console.log(`${((count / total) * 100).toFixed(1).padStart(5)}%  ${key}`)
}
