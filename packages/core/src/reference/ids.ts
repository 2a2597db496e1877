/**
 * Identifiers of the reference service: unique within a service, and the same sequence for the same seed,
 * so that tests can rely on them.
 */
import { generator } from "./random.js"

/** Makes identifiers from a seed. */
export const makeIds = (seed: number) => {
  const random = generator(seed ^ 0x5bd1e995)
  const hex = (length: number): string => {
    let out = ""
    while (out.length < length) out += Math.floor(random() * 0x100000000).toString(16).padStart(8, "0")
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
