/** Shims for the conformance suite's reliability tests. */
export {}
