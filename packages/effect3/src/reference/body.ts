/**
 * Reading a request body with a size limit. A body whose declared `content-length` is over the limit is
 * refused without reading it; a body without one (chunked) is counted as it arrives and reading stops as
 * soon as it passes the limit, so nothing larger than the limit is ever held. While it arrives, a body also
 * takes its bytes from a budget shared by every body still being received, and is refused (503) when the
 * budget is spent; it gives them back once read or refused.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { ByteBudget } from "studio-effect-core/reference/byteBudget"

/** The default limit of a request body: 1 MiB. */
export const defaultMaxBodyBytes = 1024 * 1024

/** The body is larger than the limit. */
export class BodyTooLarge {
  readonly _tag = "BodyTooLarge"
  constructor(readonly limit: number) {}
}

/** The bodies still being received hold the whole budget: this one is refused. */
export class BudgetSpent {
  readonly _tag = "BudgetSpent"
  constructor(readonly limit: number) {}
}

/** The body could not be read (the client went away, or its stream failed). */
export class BodyUnreadable {
  readonly _tag = "BodyUnreadable"
}

/** The `detail` of a 413. */
export const tooLargeDetail = (limit: number) => `Request body too large: the limit is ${limit} bytes.`

/** The `content-length` the request declares, when it declares a valid one. */
export const declaredLength = (request: HttpServerRequest.HttpServerRequest): number | undefined => {
  const header = request.headers["content-length"]
  return header !== undefined && /^\s*\d+\s*$/.test(header) ? Number(header) : undefined
}

/** The part of a Node.js `IncomingMessage` the reader uses; `@effect/platform-node` requests carry one. */
interface NodeReadable {
  readonly readableEnded: boolean
  on(event: string, listener: (...args: Array<any>) => void): unknown
  off(event: string, listener: (...args: Array<any>) => void): unknown
  resume(): unknown
  pipe(...args: Array<any>): unknown
}

const isNodeReadable = (source: unknown): source is NodeReadable =>
  typeof source === "object" && source !== null && typeof (source as NodeReadable).on === "function" &&
  typeof (source as NodeReadable).off === "function" && typeof (source as NodeReadable).resume === "function" &&
  typeof (source as NodeReadable).pipe === "function" && typeof (source as NodeReadable).readableEnded === "boolean"

const decoder = new TextDecoder()

const text = (parts: ReadonlyArray<Uint8Array>, size: number): string => {
  if (parts.length === 1) return decoder.decode(parts[0])
  const out = new Uint8Array(size)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return decoder.decode(out)
}

/**
 * Reads a Node.js request directly. Past the limit it stops keeping data and lets the rest drain away
 * unread instead of destroying the request (which would close the socket before the 413 is sent); the 413
 * carries `connection: close`, so the connection ends once the answer is out.
 */
const readNode = (
  source: NodeReadable,
  limit: number,
  budget: ByteBudget
): Effect.Effect<string, BodyTooLarge | BudgetSpent | BodyUnreadable> =>
  source.readableEnded ? Effect.succeed("") : Effect.async((resume) => {
    const parts: Array<Uint8Array> = []
    let size = 0
    let taken = 0
    const stop = () => {
      budget.give(taken)
      taken = 0
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
      source.off("aborted", onError)
    }
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk
      size += bytes.length
      const refused = size > limit
        ? new BodyTooLarge(limit)
        : budget.take(bytes.length)
        ? undefined
        : new BudgetSpent(budget.limit)
      if (refused !== undefined) {
        stop()
        parts.length = 0
        source.resume()
        resume(Effect.fail(refused))
      } else {
        taken += bytes.length
        parts.push(bytes)
      }
    }
    const onEnd = () => {
      stop()
      resume(Effect.succeed(text(parts, size)))
    }
    const onError = () => {
      stop()
      resume(Effect.fail(new BodyUnreadable()))
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    source.on("aborted", onError)
    return Effect.sync(stop)
  })

/** Reads a body through `request.stream` (web requests, in memory); failing past the limit cancels the stream. */
const readStream = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  budget: ByteBudget
): Effect.Effect<string, BodyTooLarge | BudgetSpent | BodyUnreadable> => {
  const source = request.source
  if (typeof Request !== "undefined" && source instanceof Request && source.body === null) return Effect.succeed("")
  const acc = { parts: [] as Array<Uint8Array>, size: 0 }
  return Stream.runForEach(
    request.stream,
    (chunk): Effect.Effect<void, BodyTooLarge | BudgetSpent> => {
      if (acc.size + chunk.length > limit) return Effect.fail(new BodyTooLarge(limit))
      if (!budget.take(chunk.length)) return Effect.fail(new BudgetSpent(budget.limit))
      acc.size += chunk.length
      acc.parts.push(chunk)
      return Effect.void
    }
  ).pipe(
    Effect.map(() => text(acc.parts, acc.size)),
    Effect.catchIf(
      (error): error is Exclude<typeof error, BodyTooLarge | BudgetSpent> =>
        !(error instanceof BodyTooLarge || error instanceof BudgetSpent),
      () => Effect.fail(new BodyUnreadable())
    ),
    Effect.ensuring(Effect.sync(() => budget.give(acc.size)))
  )
}

/**
 * The body as text (UTF-8), or `BodyTooLarge` as soon as it is known to pass `limit` bytes, or
 * `BudgetSpent` when the bodies still being received hold all of `budget`.
 */
export const readText = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  budget: ByteBudget
): Effect.Effect<string, BodyTooLarge | BudgetSpent | BodyUnreadable> => {
  const declared = declaredLength(request)
  if (declared !== undefined && declared > limit) return Effect.fail(new BodyTooLarge(limit))
  return isNodeReadable(request.source) ? readNode(request.source, limit, budget) : readStream(request, limit, budget)
}
