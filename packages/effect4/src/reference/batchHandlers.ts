/**
 * The reference service's handlers of the Batch API: a create reads a multipart form (the JSONL file, its
 * endpoint and metadata) and checks every line before anything is stored; the others read the caller's
 * batches. Bad input is a 4xx with a `detail` that says what is wrong.
 */
import * as Effect from "effect/Effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { batchNotFound, finishedDetail, unfinishedDetail } from "studio-effect-core/reference/batches"
import { batchPage, batchRequestIssues, batchResultsOptions } from "studio-effect-core/reference/batchRequests"
import { ShuttingDown } from "studio-effect-core/reference/bodyRefusals"
import { fieldText, parseMultipart } from "studio-effect-core/reference/library/multipart"
import { readBytes } from "./body.js"
import type { Limits } from "./limits.js"
import type { Answer, Requests } from "./requests.js"
import * as Wire from "./wire.js"

/** The handlers of the Batch API's operations, over the caller's tenant. */
export const makeBatchHandlers = (context: {
  readonly requests: Requests
  readonly limits: Limits
  readonly stopping: Effect.Effect<void>
  /** The largest batch file, in bytes. */
  readonly maxFileBytes: number
}) => {
  const { endpoint, param } = context.requests
  const { limits, stopping } = context
  const query = Effect.map(
    HttpServerRequest.HttpServerRequest,
    (request) => new URL(request.url, "http://reference.local").searchParams
  )
  const answer = <A>(found: A | undefined, id: string, f: (value: A) => HttpServerResponse.HttpServerResponse) =>
    found === undefined ? Wire.detail(404, batchNotFound(id)) : f(found)

  const batchesCreate: Answer = endpoint(({ batches }) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const bytes = yield* readBytes(request, limits.maxUploadBytes, limits.pending).pipe(
        Effect.raceFirst(Effect.andThen(stopping, Effect.fail(new ShuttingDown()))),
        Effect.catchTag("BodyUnreadable", () => Effect.succeed(new Uint8Array(0)))
      )
      const form = parseMultipart(request.headers["content-type"], bytes)
      if (form._tag === "Malformed") return Wire.detail(400, `There was an error parsing the body: ${form.reason}.`)
      const parts = form._tag === "Parts" ? form.parts : []
      const field = (name: string) => {
        const part = parts.find((part) => part.name === name && part.filename === undefined)
        return part === undefined ? undefined : fieldText(part)
      }
      const file = parts.find((part) => part.name === "file" && part.filename !== undefined)
      if (file !== undefined && file.body.length > context.maxFileBytes) {
        return Wire.detail(413, `The batch's file is larger than ${context.maxFileBytes} bytes.`)
      }
      const checked = batchRequestIssues({ file: file?.body, endpoint: field("endpoint"), metadata: field("metadata") })
      if (checked._tag === "Invalid") return Wire.unprocessable(checked.issues)
      const created = yield* batches.create({ ...checked.batch, size: file!.body.length })
      return "_tag" in created ? Wire.detail(413, created.message) : Wire.json(created)
    })
  )

  const batchesList: Answer = endpoint(({ batches }) =>
    Effect.gen(function*() {
      const page = batchPage(yield* query)
      if (page._tag === "Invalid") return Wire.unprocessable(page.issues)
      return Wire.json(yield* batches.list(page.page))
    })
  )

  const batchesRetrieve: Answer = endpoint(({ batches }) =>
    Effect.gen(function*() {
      const id = yield* param("id")
      return answer(yield* batches.retrieve(id), id, Wire.json)
    })
  )

  const batchesCancel: Answer = endpoint(({ batches }) =>
    Effect.gen(function*() {
      const id = yield* param("id")
      return answer(
        yield* batches.cancel(id),
        id,
        (cancelled) =>
          cancelled._tag === "Cancelled"
            ? Wire.json(cancelled.batch)
            : Wire.detail(400, finishedDetail(id, cancelled.status))
      )
    })
  )

  const batchesResults: Answer = endpoint(({ batches }) =>
    Effect.gen(function*() {
      const id = yield* param("id")
      const options = batchResultsOptions(yield* query)
      if (options._tag === "Invalid") return Wire.unprocessable(options.issues)
      return answer(
        yield* batches.results(id, options.fileType, options.force),
        id,
        (results) =>
          results._tag === "Results"
            ? HttpServerResponse.text(results.text, { contentType: "application/jsonl" })
            : Wire.detail(400, unfinishedDetail(id, results.status))
      )
    })
  )

  return { batchesCreate, batchesList, batchesRetrieve, batchesCancel, batchesResults }
}
