/**
 * A budget of bytes shared by the request bodies a service is still receiving: each body takes from it as
 * its bytes arrive and gives everything back once it is read whole (or refused). Stalled uploads therefore
 * hold at most the budget together, whatever their number.
 *
 * @since 0.1.0
 */

/**
 * The default budget: 32 MiB held by unfinished bodies, all together.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxPendingBodyBytes = 32 * 1024 * 1024

/**
 * @since 0.1.0
 * @category models
 */
export interface ByteBudget {
  /** The budget, in bytes. */
  readonly limit: number
  /** Takes `bytes` from the budget; `false`, taking nothing, when fewer are left. */
  readonly take: (bytes: number) => boolean
  /** Gives back `bytes` taken before. */
  readonly give: (bytes: number) => void
  /** The bytes taken now. */
  readonly held: () => number
}

/**
 * A budget of `limit` bytes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeByteBudget = (limit: number): ByteBudget => {
  let held = 0
  return {
    limit,
    take: (bytes) => {
      if (held + bytes > limit) return false
      held += bytes
      return true
    },
    give: (bytes) => {
      held = Math.max(0, held - bytes)
    },
    held: () => held
  }
}

/**
 * The `detail` of the 503 that refuses a body when the budget is spent.
 *
 * @since 0.1.0
 * @category messages
 */
export const budgetSpentDetail = (limit: number): string =>
  `Service busy: request bodies still being received hold ${limit} bytes, the most it keeps. Retry shortly.`
