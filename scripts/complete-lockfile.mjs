// Lists every platform's optional packages in package-lock.json (dprint, rollup, msgpackr-extract ship one
// binary package per platform). A lock written where the registry serves only this platform's packages
// leaves the others out, and `npm ci` then refuses the lock; an entry with the version is all it needs,
// and each platform installs only its own package. Run after `npm install` changes the lock.
import { readFileSync, writeFileSync } from "node:fs"

const path = new URL("../package-lock.json", import.meta.url)
const lock = JSON.parse(readFileSync(path, "utf8"))
const packages = lock.packages
let added = 0
for (const [key, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = key === "" ? "" : `${key}/`
    if (packages[`${base}node_modules/${name}`] !== undefined || packages[`node_modules/${name}`] !== undefined) {
      continue
    }
    packages[`node_modules/${name}`] = { version, dev: entry.dev === true, optional: true }
    added++
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`package-lock.json: ${added} platform packages added`)
