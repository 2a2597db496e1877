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

/** 32-bit words of the seeded generator, from `seed` mixed with `salt`. */
const seededWords = (seed: number, salt: number): () => number => {
  const random = generator(seed ^ salt)
  return () => Math.floor(random() * 0x100000000)
}

/** `length` hex digits drawn from `word`. */
const hexOf = (word: () => number, length: number): string => {
  let out = ""
  while (out.length < length) out += word().toString(16).padStart(8, "0")
  return out.slice(0, length)
}

/** A version 4 UUID drawn from `word`: 36 characters. */
const uuidOf = (word: () => number): string => {
  const h = hexOf(word, 32)
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/**
 * Makes identifiers: from `seed` when one is given, unguessable otherwise. The request ids of answers are
 * drawn from a sequence of their own, so that a seeded service gives its resources the same ids whatever
 * it answered in between.
 */
export const makeIds = (seed?: number | undefined) => {
  const word = seed === undefined ? cryptoWords() : seededWords(seed, 0x5bd1e995)
  const answerWord = seed === undefined ? word : seededWords(seed, 0x27d4eb2f)
  return {
    chat: (): string => `chat-${hexOf(word, 32)}`,
    toolCall: (): string => `call_${hexOf(word, 24)}`,
    uuid: (): string => uuidOf(word),
    /** The `x-request-id` of one answer: a UUID, as the service's own (36 characters). */
    request: (): string => uuidOf(answerWord)
  }
}

/** The identifiers of one service. */
export type Ids = ReturnType<typeof makeIds>
