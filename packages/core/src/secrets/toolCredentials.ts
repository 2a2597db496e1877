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
 * Every credential in `body`, in the order of its fields, walked at most 16 levels deep; a `headers` object
 * is not walked further. Lazy: a caller that has enough stops the walk.
 *
 * @since 1.1.0
 * @category secrets
 */
export const toolCredentials = (body: unknown): Iterable<ToolCredential> => walk(body, "", 0)

function* walk(value: unknown, path: string, depth: number): Generator<ToolCredential, void, undefined> {
  if (depth > maxDepth || typeof value !== "object" || value === null) return
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index]
      if (typeof item === "object" && item !== null) yield* walk(item, `${path}[${index}]`, depth + 1)
    }
    return
  }
  for (const [key, field] of Object.entries(value)) {
    if (typeof field !== "object" || field === null) continue
    const at = path === "" ? key : `${path}.${key}`
    if (key === "headers") {
      for (const [name, header] of Object.entries(field)) yield { path: at, name, value: header }
    } else {
      yield* walk(field, at, depth + 1)
    }
  }
}
