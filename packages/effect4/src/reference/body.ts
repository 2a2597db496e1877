/**
 * Reading a request body with a size limit. A body whose declared `content-length` is over the limit is
 * refused without reading it; any other body is counted as it arrives and reading stops as soon as it
 * passes the limit, so nothing larger than the limit is ever held. While it arrives, a body also takes its
 * bytes from a budget shared by every body still being received, and is refused (503) when the budget is
 * spent; it gives them back once read or refused.
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Stream from "effect/Stream"
import { concatBytes } from "studio-effect-core/bytes/concatBytes"
import { BodyTooLarge, BodyUnreadable, BudgetSpent, declaredLength } from "studio-effect-core/reference/bodyRefusals"
import type { ByteBudget } from "studio-effect-core/reference/byteBudget"
import { textOf } from "studio-effect-core/reference/nodeBody"

/**
 * Reads a body through `request.stream`, over Node.js (where reading it sends a pending `100 Continue`) and
 * in memory alike: each chunk is counted and taken from `budget` as it is pulled, and pulling stops past
 * the limit or the budget, so an endless body is never collected. The transport tears down the rest of a
 * body left unread once the answer is out.
 */
export const readBytes = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  budget: ByteBudget
): Effect.Effect<Uint8Array, BodyTooLarge | BudgetSpent | BodyUnreadable> => {
  const declared = declaredLength(request.headers["content-length"])
  if (declared !== undefined && declared > limit) return Effect.fail(new BodyTooLarge(limit))
  return Effect.suspend(() => {
    const acc = { parts: [] as Array<Uint8Array>, size: 0 }
    return Stream.runForEach(request.stream, (chunk): Effect.Effect<void, BodyTooLarge | BudgetSpent> => {
      if (acc.size + chunk.length > limit) return Effect.fail(new BodyTooLarge(limit))
      if (!budget.take(chunk.length)) return Effect.fail(new BudgetSpent(budget.limit))
      acc.size += chunk.length
      acc.parts.push(chunk)
      return Effect.void
    }).pipe(
      Effect.map(() => concatBytes(acc.parts, acc.size)),
      Effect.catchTag("HttpServerError", () => Effect.fail(new BodyUnreadable())),
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
