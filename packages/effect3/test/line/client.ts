/** Shims for the conformance suite's client tests. */
export {}
