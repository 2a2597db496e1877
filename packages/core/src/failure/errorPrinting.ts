/**
 * How an error of the SDK prints outside Effect (`console.error(error)`, `util.inspect(error)`): as Node
 * prints an error, its class name and message (its stack, which has no frames), then the figures a caller
 * acts on: the answer's `status`, the service's `requestId` and the delay it asked for (`retryAfterMs`).
 * Only those: the answer's headers, body and the request are left to the fields, so what prints is short
 * and holds nothing the message does not already show.
 *
 * @since 1.0.0
 */

/**
 * The key under which Node's `util.inspect` (and so `console.log` and `console.error`) looks for an
 * object's own way of printing itself.
 *
 * @since 1.0.0
 * @category printing
 */
export const nodeInspect: unique symbol = Symbol.for("nodejs.util.inspect.custom") as never

/**
 * What an error shows when it prints.
 *
 * @since 1.0.0
 * @category models
 */
export interface PrintedError {
  /** The class name (the error's `_tag`). */
  readonly name: string
  readonly message: string
  readonly status?: number | undefined
  readonly requestId?: string | undefined
  readonly retryAfterMs?: number | undefined
}

/** The figures printed after the message, in this order, each when the error has it. */
const printedFigures = ["status", "requestId", "retryAfterMs"] as const

/**
 * A plain `Error` that Node prints as the error it stands for: `[RateLimit: 429 Too many requests (request id
 * req-1). Retry after 2s, or lower your concurrency.] { status: 429, requestId: 'req-1', retryAfterMs: 2000 }`.
 * An error's `[nodeInspect]` returns it, and Node prints it with the options it was given (colours, depth).
 *
 * @since 1.0.0
 * @category printing
 */
export const printedError = (error: PrintedError): Error => {
  // a class of the error's name: Node prints `Error [ApiError]` for an `Error` whose name is another's
  const Named = class extends Error {}
  Object.defineProperty(Named, "name", { value: error.name })
  const shown = new Named(error.message)
  Object.defineProperty(shown, "name", { value: error.name, configurable: true, writable: true })
  // the stack Node prints: the first line alone, as the SDK's errors have no frames
  shown.stack = `${error.name}: ${error.message}`
  const figures: Record<string, unknown> = {}
  for (const figure of printedFigures) if (error[figure] !== undefined) figures[figure] = error[figure]
  return Object.assign(shown, figures)
}
