/** Packs a package of this repository as it is published; gives the tarball's path. */
export declare const pack: (packageDir: string, destination: string) => string
