/** The package version, sent in `User-Agent`; a test keeps it equal to package.json. */
export const version = "1.0.0"
