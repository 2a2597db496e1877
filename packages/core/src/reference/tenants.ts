/**
 * Tenants of the reference service: with accepted keys configured, each key has its own state (its
 * assistants and runs), so one key never sees or changes what another made, as the real service scopes
 * them by account. Without accepted keys (the open default, any bearer token), every caller shares one
 * state. The number of states kept is bounded: past it, the state of the key least recently used is
 * forgotten, and gives back what it took from budgets the tenants share (`forget`).
 *
 * @since 0.1.0
 */

/**
 * The most tenants kept at once by default.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxTenants = 100

/**
 * The state of each tenant, made on first use.
 *
 * @since 0.1.0
 * @category models
 */
export interface Tenants<T> {
  /** The state of the caller with `key`: its own, or the shared one when tenants are not separated. */
  readonly of: (key: string) => T
  /** How many states are kept. */
  readonly size: () => number
}

/**
 * Makes the tenants of a service: each key's state made by `make` on first use when `separate`, one shared
 * state otherwise; at most `maxTenants` kept (at least one), the least recently used forgotten first, each
 * given to `forget` as it goes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeTenants = <T>(options: {
  readonly make: () => T
  readonly separate: boolean
  readonly maxTenants: number
  /** Releases what a forgotten state holds of what all tenants share. */
  readonly forget?: ((state: T) => void) | undefined
}): Tenants<T> => {
  if (!options.separate) {
    const shared = options.make()
    return { of: () => shared, size: () => 1 }
  }
  const max = Math.max(1, Math.floor(options.maxTenants))
  // in the order of last use: the least recently used is first
  const states = new Map<string, T>()
  const of = (key: string): T => {
    const known = states.get(key)
    if (known !== undefined) {
      states.delete(key)
      states.set(key, known)
      return known
    }
    const made = options.make()
    states.set(key, made)
    for (const oldest of states.keys()) {
      if (states.size <= max) break
      options.forget?.(states.get(oldest)!)
      states.delete(oldest)
    }
    return made
  }
  return { of, size: () => states.size }
}
