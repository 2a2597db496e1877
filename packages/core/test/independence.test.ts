/**
 * The core is shared by both Effect lines, so it imports nothing but its own modules and Node's built-ins:
 * no `effect`, no `@effect/*`, and no other package.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const src = fileURLToPath(new URL("../src", import.meta.url))

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

/** Every module specifier of a file: static and dynamic imports, and re-exports. */
const specifiers = (text: string): Array<string> =>
  [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)].map((match) => match[1]!)

describe("the core", () => {
  const files = sourceFiles(src)

  it("has modules", () => {
    expect(files.length).toBeGreaterThan(5)
  })

  it.each(files.map((file) => [relative(src, file), file]))("%s imports only its own modules and node:", (_, file) => {
    for (const specifier of specifiers(readFileSync(file, "utf8"))) {
      expect(specifier.startsWith(".") || specifier.startsWith("node:"), specifier).toBe(true)
    }
  })

  it("finds an import of effect where there is one", () => {
    expect(specifiers(`import * as Effect from "effect/Effect"\nexport { x } from "./x.js"`)).toEqual([
      "effect/Effect",
      "./x.js"
    ])
  })
})
