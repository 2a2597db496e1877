/**
 * The reference service's only source of randomness: a stable hash to seed from, and a small deterministic
 * generator, so that the same request and seed always give the same answer.
 */

/** FNV-1a over a string: a stable 32-bit hash. */
export const hash = (text: string, basis = 0x811c9dc5): number => {
  let h = basis >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

/** A small deterministic generator (mulberry32) giving numbers in [0, 1). */
export const generator = (seed: number) => {
  let state = seed >>> 0
  return (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
