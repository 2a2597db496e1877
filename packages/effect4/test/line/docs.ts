/** Shims for the conformance suite's docs tests. */
export {}
