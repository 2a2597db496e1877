/** Shims for the conformance suite's reference tests. */
export {}
