/** Shims for the conformance suite's interop tests. */
export {}
