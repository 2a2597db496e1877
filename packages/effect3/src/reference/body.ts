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
import { concatBytes } from "studio-effect-core/bytes/concatBytes"
import { BodyTooLarge, BodyUnreadable, BudgetSpent, declaredLength } from "studio-effect-core/reference/bodyRefusals"
import type { ByteBudget } from "studio-effect-core/reference/byteBudget"
import { isNodeReadable, type NodeReadable, readNodeBody, textOf } from "studio-effect-core/reference/nodeBody"

type Read = Effect.Effect<Uint8Array, BodyTooLarge | BudgetSpent | BodyUnreadable>

/** Reads a Node.js request directly (see `readNodeBody`); the 413 or 503 then closes the connection. */
const readNode = (source: NodeReadable, limit: number, budget: ByteBudget): Read =>
  Effect.async((resume) => {
    const stop = readNodeBody(source, limit, budget, (read) => {
      switch (read._tag) {
        case "Bytes":
          return resume(Effect.succeed(read.bytes))
        case "TooLarge":
          return resume(Effect.fail(new BodyTooLarge(limit)))
        case "BudgetSpent":
          return resume(Effect.fail(new BudgetSpent(budget.limit)))
        case "Unreadable":
          return resume(Effect.fail(new BodyUnreadable()))
      }
    })
    return Effect.sync(stop)
  })

/** Reads a body through `request.stream` (web requests, in memory); failing past the limit cancels the stream. */
const readStream = (request: HttpServerRequest.HttpServerRequest, limit: number, budget: ByteBudget): Read => {
  const source = request.source
  if (typeof Request !== "undefined" && source instanceof Request && source.body === null) {
    return Effect.succeed(new Uint8Array(0))
  }
  return Effect.suspend(() => {
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
      Effect.map(() => concatBytes(acc.parts, acc.size)),
      Effect.catchIf(
        (error): error is Exclude<typeof error, BodyTooLarge | BudgetSpent> =>
          !(error instanceof BodyTooLarge || error instanceof BudgetSpent),
        () => Effect.fail(new BodyUnreadable())
      ),
      Effect.ensuring(Effect.sync(() => budget.give(acc.size)))
    )
  })
}

/** The body as text (UTF-8), read as `readBytes` reads it. */
export const readText = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  budget: ByteBudget
): Effect.Effect<string, BodyTooLarge | BudgetSpent | BodyUnreadable> =>
  Effect.map(readBytes(request, limit, budget), textOf)

/**
 * The body's bytes, or `BodyTooLarge` as soon as it is known to pass `limit` bytes, or `BudgetSpent` when
 * the bodies still being received hold all of `budget`.
 */
export const readBytes = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  budget: ByteBudget
): Read => {
  const declared = declaredLength(request.headers["content-length"])
  if (declared !== undefined && declared > limit) return Effect.fail(new BodyTooLarge(limit))
  return isNodeReadable(request.source) ? readNode(request.source, limit, budget) : readStream(request, limit, budget)
}
