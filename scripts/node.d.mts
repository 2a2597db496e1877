/** The release of each major line the matrix uses. */
export declare const releases: { readonly 20: string; readonly 22: string; readonly 24: string }

/**
 * The path of a Node.js binary of `major`: this process's own when its major matches, otherwise the pinned
 * release, installed once under .node/.
 */
export declare const nodeBinary: (major: number) => string

/** This process's Node.js when it is at least `minimum` (`"22.19.0"`), otherwise the pinned release of its major. */
export declare const nodeAtLeast: (minimum: string) => string

/** Whether the Node.js `version` (`"24.21.0"`) is `minimum` or later. */
export declare const versionAtLeast: (version: string, minimum: string) => boolean
