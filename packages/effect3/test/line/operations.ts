/** Shims for the conformance suite's operations tests. */
export {}
