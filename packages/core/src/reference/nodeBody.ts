/**
 * Reading the body of a Node.js request (`http.IncomingMessage`) as it arrives, within a size limit and a
 * budget of bytes shared by every body still arriving (see `byteBudget`). Past either, it stops keeping
 * data and lets the rest drain away unread instead of destroying the request (which would close the socket
 * before the refusal is sent); the refusal should close the connection once it is out.
 *
 * @since 0.1.0
 */
import { concatBytes } from "../bytes/concatBytes.js"
import type { ByteBudget } from "./byteBudget.js"

/**
 * The part of a Node.js `IncomingMessage` the reader uses.
 *
 * @since 0.1.0
 * @category models
 */
export interface NodeReadable {
  readonly readableEnded: boolean
  on(event: string, listener: (...args: Array<any>) => void): unknown
  off(event: string, listener: (...args: Array<any>) => void): unknown
  resume(): unknown
  pipe(...args: Array<any>): unknown
}

/**
 * Whether `source` is a Node.js readable the reader can use.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isNodeReadable = (source: unknown): source is NodeReadable =>
  typeof source === "object" && source !== null && typeof (source as NodeReadable).on === "function" &&
  typeof (source as NodeReadable).off === "function" && typeof (source as NodeReadable).resume === "function" &&
  typeof (source as NodeReadable).pipe === "function" && typeof (source as NodeReadable).readableEnded === "boolean"

/**
 * What reading a body came to.
 *
 * @since 0.1.0
 * @category models
 */
export type BodyRead =
  | { readonly _tag: "Bytes"; readonly bytes: Uint8Array }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "BudgetSpent" }
  | { readonly _tag: "Unreadable" }

const decoder = new TextDecoder()

/**
 * The text of `bytes` (UTF-8).
 *
 * @since 0.1.0
 * @category constructors
 */
export const textOf = (bytes: Uint8Array): string => decoder.decode(bytes)

/**
 * Reads `source` and calls `done` once with what it came to; the bytes taken from `budget` are given back
 * when it is done. The function returned stops reading (and gives them back) when the reader is no longer
 * wanted.
 *
 * @since 0.1.0
 * @category constructors
 */
export const readNodeBody = (
  source: NodeReadable,
  limit: number,
  budget: ByteBudget,
  done: (read: BodyRead) => void
): () => void => {
  if (source.readableEnded) {
    done({ _tag: "Bytes", bytes: new Uint8Array(0) })
    return () => {}
  }
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
    const refused: BodyRead | undefined = size > limit
      ? { _tag: "TooLarge" }
      : budget.take(bytes.length)
      ? undefined
      : { _tag: "BudgetSpent" }
    if (refused === undefined) {
      taken += bytes.length
      parts.push(bytes)
      return
    }
    stop()
    parts.length = 0
    source.resume()
    done(refused)
  }
  const onEnd = () => {
    stop()
    done({ _tag: "Bytes", bytes: concatBytes(parts, size) })
  }
  const onError = () => {
    stop()
    done({ _tag: "Unreadable" })
  }
  source.on("data", onData)
  source.on("end", onEnd)
  source.on("error", onError)
  source.on("aborted", onError)
  return stop
}
