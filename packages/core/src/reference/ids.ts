/**
 * Identifiers of the reference service: unique within a service and, by default, drawn from the platform's
 * cryptographic generator, so that one caller cannot guess another's. Given a seed, they are the same
 * sequence for the same seed instead, so that tests can rely on them.
 */
import { generator } from "./random.js"

/** 32-bit words from the cryptographic generator, drawn a block at a time. */
const cryptoWords = (): () => number => {
  const block = new Uint32Array(64)
  let next = block.length
  return () => {
    if (next === block.length) {
      globalThis.crypto.getRandomValues(block)
      next = 0
    }
    return block[next++]!
  }
}

/** Makes identifiers: from `seed` when one is given, unguessable otherwise. */
export const makeIds = (seed?: number | undefined) => {
  const word: () => number = seed === undefined
    ? cryptoWords()
    : (() => {
      const random = generator(seed ^ 0x5bd1e995)
      return () => Math.floor(random() * 0x100000000)
    })()
  const hex = (length: number): string => {
    let out = ""
    while (out.length < length) out += word().toString(16).padStart(8, "0")
    return out.slice(0, length)
  }
  const uuid = (): string => {
    const h = hex(32)
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
  }
  return {
    chat: (): string => `chat-${hex(32)}`,
    toolCall: (): string => `call_${hex(24)}`,
    uuid
  }
}

/** The identifiers of one service. */
export type Ids = ReturnType<typeof makeIds>
