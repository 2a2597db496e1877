/**
 * The reference service's handler of each operation of the endpoint table: chat completions (whole or
 * streamed), runs, assistants, models, the library and batches, over the caller's tenant.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { answerSchemaIssue } from "studio-effect-core/reference/answerSchema"
import { mergeRunConfiguration } from "studio-effect-core/reference/assistants"
import { ShuttingDown, shuttingDownDetail } from "studio-effect-core/reference/bodyRefusals"
import { completion } from "studio-effect-core/reference/chat"
import { modelIssue } from "studio-effect-core/reference/fastApi"
import type { makeIds } from "studio-effect-core/reference/ids"
import { attachmentDisposition, fileNotFound, type Write } from "studio-effect-core/reference/library/library"
import { fieldText, parseMultipart } from "studio-effect-core/reference/library/multipart"
import { mockDelays } from "studio-effect-core/reference/mockResponse"
import { isChatModel, modelList } from "studio-effect-core/reference/modelCatalog"
import type { EndpointName } from "studio-effect-core/wire/endpoints"
import { chatModels } from "studio-effect-core/wire/models"
import * as AssistantSchema from "../AssistantSchema.js"
import { ChatRequest } from "../ChatSchema.js"
import * as LibrarySchema from "../LibrarySchema.js"
import { RunRequest } from "../MaestroSchema.js"
import type { AssistantTooLarge } from "./assistants.js"
import { makeBatchHandlers } from "./batchHandlers.js"
import { readBytes } from "./body.js"
import * as Chat from "./chat.js"
import type { Limits } from "./limits.js"
import type { Model } from "./model.js"
import type { Answer, Requests } from "./requests.js"
import * as Sse from "./sse.js"
import * as Wire from "./wire.js"

/** The operations the service answers: every one of the endpoint table (a chat stream is a chat create). */
export type HandledEndpoint = Exclude<EndpointName, "chatStream">

/** An assistant longer than the store keeps: 413, and nothing is stored. */
const tooLong = (error: AssistantTooLarge) => Effect.succeed(Wire.detail(413, error.message))

/** The answer of a library write: its value, a 413 for its size, or a 422 for a broken rule. */
const writeAnswer = <A>(write: Write<A>, answer: (value: A) => HttpServerResponse.HttpServerResponse) =>
  write._tag === "Done"
    ? answer(write.value)
    : write._tag === "TooLarge"
    ? Wire.detail(413, write.message)
    : Wire.unprocessable(write.issues)

const listQuery = Schema.decodeUnknown(LibrarySchema.ListFilesRequest, {
  errors: "all",
  onExcessProperty: "ignore"
})

/** The handler of each operation, each behind auth and the rate limit (`Requests.endpoint`). */
export const makeHandlers = (context: {
  readonly requests: Requests
  readonly limits: Limits
  readonly stopping: Effect.Effect<void>
  readonly model: Model
  readonly seed: number
  readonly ids: ReturnType<typeof makeIds>
  readonly extraModels: ReadonlyArray<string>
  readonly streamEventDelay: Duration.DurationInput | undefined
  /** The largest batch file, in bytes. */
  readonly maxFileBytes: number
}) => {
  const { body, endpoint, param, runBody } = context.requests
  const { limits, model, seed, ids, stopping } = context
  const acceptedChatModels = [...chatModels, ...context.extraModels]
  const models = modelList(context.extraModels)

  const chat = endpoint(() =>
    Effect.gen(function*() {
      const request = yield* Effect.filterOrFail(
        body(ChatRequest),
        (request) => isChatModel(request.model, context.extraModels),
        () => new Wire.InvalidBody([modelIssue(acceptedChatModels, ["body", "model"])])
      )
      const schemaIssue = answerSchemaIssue(request)
      if (schemaIssue !== undefined) return Wire.unprocessable([schemaIssue])
      const mock = mockDelays(request.mock_response)
      if (mock !== undefined && mock.response > 0) yield* Effect.sleep(mock.response)
      const generated = yield* Chat.generate(model, request, { seed, ids })
      if (request.stream !== true) return Wire.json(completion(generated))
      const pause = mock !== undefined
        ? Duration.millis(mock.betweenEvents)
        : context.streamEventDelay === undefined
        ? undefined
        : Duration.decode(context.streamEventDelay)
      const chunks = pause === undefined || Duration.toMillis(pause) === 0
        ? Chat.chunks(generated)
        : Stream.suspend(() => {
          // a pause between events: the first goes out at once
          let first = true
          return Chat.chunks(generated).pipe(
            Stream.tap(() => first ? Effect.sync(() => (first = false)) : Effect.sleep(pause))
          )
        })
      return HttpServerResponse.stream(Sse.encode(chunks, stopping, shuttingDownDetail), {
        contentType: "text/event-stream",
        headers: { "cache-control": "no-cache" }
      })
    })
  )

  const runAssistant = endpoint(({ assistants, runs }) =>
    Effect.gen(function*() {
      const id = yield* param("id")
      const assistant = yield* assistants.retrieve(id)
      if (assistant === undefined) return Wire.notFound("Assistant", id)
      const request = yield* runBody(AssistantSchema.AssistantRunRequest)
      return Wire.json(yield* runs.create(mergeRunConfiguration(assistant, request)))
    })
  )

  const handlers: Record<HandledEndpoint, Answer> = {
    chatCreate: chat,
    maestroCreate: endpoint(({ runs }) =>
      Effect.gen(function*() {
        const request = yield* runBody(RunRequest)
        return Wire.json(yield* runs.create(request))
      })
    ),
    maestroRetrieve: endpoint(({ runs }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const run = yield* runs.retrieve(id)
        return run === undefined ? Wire.notFound("Run", id) : Wire.json(run)
      })
    ),
    assistantsList: endpoint(({ assistants }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const workspaceIds = new URL(request.url, "http://reference.local").searchParams.getAll("workspace_ids")
        return Wire.jsonText(yield* assistants.listJson(workspaceIds))
      })
    ),
    assistantsCreate: endpoint(({ assistants }) =>
      Effect.gen(function*() {
        const request = yield* runBody(AssistantSchema.CreateAssistantRequest)
        return yield* assistants.create(request).pipe(
          Effect.map(Wire.json),
          Effect.catchTag("AssistantTooLarge", tooLong)
        )
      })
    ),
    assistantsRetrieve: endpoint(({ assistants }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const assistant = yield* assistants.retrieve(id)
        return assistant === undefined ? Wire.notFound("Assistant", id) : Wire.json(assistant)
      })
    ),
    assistantsUpdate: endpoint(({ assistants }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        if ((yield* assistants.retrieve(id)) === undefined) return Wire.notFound("Assistant", id)
        const request = yield* runBody(AssistantSchema.ModifyAssistantRequest)
        return yield* assistants.update(id, request).pipe(
          Effect.map((updated) => updated === undefined ? Wire.notFound("Assistant", id) : Wire.json(updated)),
          Effect.catchTag("AssistantTooLarge", tooLong)
        )
      })
    ),
    assistantsDelete: endpoint(({ assistants }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const deleted = yield* assistants.remove(id)
        return deleted === undefined ? Wire.notFound("Assistant", id) : Wire.json(deleted)
      })
    ),
    assistantsRun: runAssistant,
    assistantsRunSample: runAssistant,
    modelsList: endpoint(() => Effect.sync(() => Wire.json(models))),
    libraryUpload: endpoint(({ library }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const bytes = yield* readBytes(request, limits.maxUploadBytes, limits.pending).pipe(
          Effect.raceFirst(Effect.zipRight(stopping, Effect.fail(new ShuttingDown()))),
          Effect.catchTag("BodyUnreadable", () => Effect.succeed(new Uint8Array(0)))
        )
        const form = parseMultipart(request.headers["content-type"], bytes)
        if (form._tag === "Malformed") return Wire.detail(400, `There was an error parsing the body: ${form.reason}.`)
        const parts = form._tag === "Parts" ? form.parts : []
        const file = parts.find((part) => part.name === "file" && part.filename !== undefined)
        if (file === undefined) {
          return Wire.unprocessable([{ loc: ["body", "file"], msg: "Field required", type: "missing" }])
        }
        const field = (name: string) => {
          const part = parts.find((part) => part.name === name && part.filename === undefined)
          return part === undefined ? undefined : fieldText(part)
        }
        const labels = parts.filter((part) => part.name === "labels" && part.filename === undefined).map(fieldText)
        // a file name may carry the client's directories (`docs/a.txt`): the name is its last part
        const filename = file.filename!
        const name = filename.slice(Math.max(filename.lastIndexOf("/"), filename.lastIndexOf("\\")) + 1)
        const write = yield* library.upload({
          name,
          bytes: file.body,
          path: field("path"),
          labels,
          publicUrl: field("publicUrl"),
          batchId: field("batch_id"),
          dataSource: field("data_source")
        })
        return writeAnswer(write, Wire.json)
      })
    ),
    libraryList: endpoint(({ library }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const query = new URL(request.url, "http://reference.local").searchParams
        const number = (name: string) => {
          const value = query.get(name)
          return value === null ? undefined : /^-?\d{1,15}$/.test(value) ? Number(value) : value
        }
        const filters = yield* listQuery({
          name: query.get("name") ?? undefined,
          path: query.get("path") ?? undefined,
          status: query.get("status") ?? undefined,
          label: query.getAll("label"),
          limit: number("limit"),
          offset: number("offset")
        }).pipe(
          Effect.mapError((error) => new Wire.InvalidBody(Wire.issuesOf(error, ["query"])))
        )
        return Wire.json(yield* library.list({ ...filters, labels: filters.label }))
      })
    ),
    libraryRetrieve: endpoint(({ library }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const file = yield* library.lookup(id)
        return file === undefined ? Wire.detail(404, fileNotFound(id)) : Wire.json(file)
      })
    ),
    libraryUpdate: endpoint(({ library }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        if ((yield* library.lookup(id)) === undefined) return Wire.detail(404, fileNotFound(id))
        const changes = yield* body(LibrarySchema.UpdateFileRequest)
        const write = yield* library.update(id, changes)
        return write === undefined ? Wire.detail(404, fileNotFound(id)) : writeAnswer(write, () => Wire.json(null))
      })
    ),
    libraryDelete: endpoint(({ library }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        switch (yield* library.remove(id)) {
          case "NotFound":
            return Wire.detail(404, fileNotFound(id))
          case "Processing":
            return Wire.unprocessable([{
              loc: ["path", "file_id"],
              msg: "The file is PROCESSING and cannot be deleted until it is processed.",
              type: "value_error"
            }])
          case "Deleted":
            return Wire.json(null)
        }
      })
    ),
    librarySearch: endpoint(({ library }) =>
      Effect.gen(function*() {
        const request = yield* body(LibrarySchema.LibrarySearchRequest)
        return Wire.json(yield* library.search(request))
      })
    ),
    libraryDownload: endpoint(({ library }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const file = yield* library.download(id)
        return file === undefined
          ? Wire.detail(404, fileNotFound(id))
          : HttpServerResponse.uint8Array(file.bytes, {
            contentType: file.contentType,
            headers: { "content-disposition": attachmentDisposition(file.name) }
          })
      })
    ),
    libraryParsed: endpoint(({ library }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const parsed = yield* library.parsed(id)
        switch (parsed._tag) {
          case "NotFound":
            return Wire.detail(404, fileNotFound(id))
          case "NotReady":
            return Wire.unprocessable([{ loc: ["path", "file_id"], msg: parsed.message, type: "value_error" }])
          case "Parsed":
            return Wire.json(parsed.value, 200, {
              "content-disposition": attachmentDisposition(`${parsed.value.name}.parsed.json`)
            })
        }
      })
    ),
    libraryBatchStatus: endpoint(({ library }) =>
      Effect.gen(function*() {
        const id = yield* param("id")
        const status = yield* library.batchStatus(id)
        return status === undefined ? Wire.detail(404, `Batch ${id} not found.`) : Wire.json(status)
      })
    ),
    ...makeBatchHandlers({ requests: context.requests, limits, stopping, maxFileBytes: context.maxFileBytes })
  }
  return handlers
}
