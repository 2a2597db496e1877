/** The package version, sent in `User-Agent`; a test keeps it equal to package.json. */
export const version = "0.1.0"
