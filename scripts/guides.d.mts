/** The repository's root (absolute, with a trailing separator). */
export declare const root: string
/** The line a package is, by the `effect` it peers on. */
export declare const lineOf: (packageDir: string) => "effect3" | "effect4"
/** A file of a line's set: its path in the package and its source in the repository (absolute). */
export interface GuideFile {
  readonly path: string
  readonly source: string
}
/** The line's guides and examples, the Effect 3 line's examples taken from `examples/effect3/` where there. */
export declare const guideFiles: (line: "effect3" | "effect4") => ReadonlyArray<GuideFile>
/** Writes the line's set into the package's docs/ and examples/ (afresh); gives the paths written. */
export declare const copyGuides: (packageDir: string) => ReadonlyArray<string>
/** Removes the package's copies of the guides and examples. */
export declare const removeGuides: (packageDir: string) => void
