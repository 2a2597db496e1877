/**
 * `studio-effect batches create|get|list|cancel|results`: batches of chat requests run from a JSONL file.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { createReadStream } from "node:fs"
import { basename } from "node:path"
import { batchesDescriptions, batchesExamples, batchLine, parseMetadataPairs } from "studio-effect-core/cli/batches"
import { cannotReadMessage } from "studio-effect-core/cli/files"
import { isFinishedBatchStatus } from "studio-effect-core/wire/batches"
import * as Batches from "../Batches.js"
import type { Batch } from "../BatchSchema.js"
import type { StudioClient } from "../StudioClient.js"
import type { RequestError } from "../StudioError.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import { described } from "./help.js"
import { printJson, printShown } from "./output.js"

const json = Options.boolean("json").pipe(Options.withDescription(batchesDescriptions.json))
const batchId = Args.text({ name: "batch-id" }).pipe(Args.withDescription(batchesDescriptions.batchId))

/** A local file's bytes as a stream, read as the create pulls them (so its size bound stops the read). */
const fileStream = (file: string) =>
  Stream.fromAsyncIterable(
    createReadStream(file) as AsyncIterable<Uint8Array>,
    (cause) => new CliFailure({ message: cannotReadMessage(file, cause) })
  )

const isFinished = (batch: Batch) => isFinishedBatchStatus(batch.status)

/** The batch once it has finished, retrieved every second. */
const finished = (batch: Batch): Effect.Effect<Batch, RequestError, StudioClient> =>
  isFinished(batch)
    ? Effect.succeed(batch)
    : Effect.flatMap(Effect.zipRight(Effect.sleep("1 second"), Batches.retrieve(batch.id)), finished)

const create = Command.make(
  "create",
  {
    file: Args.text({ name: "file" }).pipe(Args.withDescription(batchesDescriptions.file)),
    metadata: Options.text("metadata").pipe(Options.repeated, Options.withDescription(batchesDescriptions.metadata)),
    wait: Options.boolean("wait").pipe(Options.withDescription(batchesDescriptions.wait)),
    json,
    reference: Client.reference
  },
  (options) =>
    Effect.gen(function*() {
      const metadata = parseMetadataPairs(options.metadata)
      if (metadata._tag === "Invalid") return yield* new CliFailure({ message: metadata.message })
      const created = yield* Batches.create({
        file: fileStream(options.file),
        name: basename(options.file),
        ...(metadata.metadata === undefined ? {} : { metadata: metadata.metadata })
      })
      const batch = options.wait ? yield* finished(created) : created
      return yield* options.json
        ? printJson(batch)
        : printShown(options.wait ? batchLine(batch) : batch.id)
    }).pipe(Effect.provide(Client.layer(options.reference)))
).pipe(Command.withDescription(described(batchesDescriptions.create, batchesExamples.create)))

const get = Command.make(
  "get",
  { batchId, reference: Client.reference },
  (options) =>
    Batches.retrieve(options.batchId).pipe(Effect.flatMap(printJson), Effect.provide(Client.layer(options.reference)))
).pipe(Command.withDescription(described(batchesDescriptions.get, batchesExamples.get)))

const list = Command.make(
  "list",
  { json, reference: Client.reference },
  (options) =>
    Batches.stream().pipe(
      Stream.runCollect,
      Effect.map(Chunk.toReadonlyArray),
      Effect.flatMap((batches) =>
        options.json
          ? printJson(batches)
          : Effect.forEach(batches, (batch) => printShown(batchLine(batch)), { discard: true })
      ),
      Effect.provide(Client.layer(options.reference))
    )
).pipe(Command.withDescription(described(batchesDescriptions.list, batchesExamples.list)))

const cancel = Command.make(
  "cancel",
  { batchId, json, reference: Client.reference },
  (options) =>
    Batches.cancel(options.batchId).pipe(
      Effect.flatMap((batch) => options.json ? printJson(batch) : printShown(batchLine(batch))),
      Effect.provide(Client.layer(options.reference))
    )
).pipe(Command.withDescription(described(batchesDescriptions.cancel, batchesExamples.cancel)))

const results = Command.make(
  "results",
  {
    batchId,
    error: Options.boolean("error").pipe(Options.withDescription(batchesDescriptions.error)),
    force: Options.boolean("force").pipe(Options.withDescription(batchesDescriptions.force)),
    reference: Client.reference
  },
  (options) =>
    Batches.results(options.batchId, {
      fileType: options.error ? "error" : "output",
      ...(options.force ? { force: true } : {})
    }).pipe(
      Effect.flatMap((lines) => Effect.forEach(lines, (line) => printShown(JSON.stringify(line)), { discard: true })),
      Effect.provide(Client.layer(options.reference))
    )
).pipe(Command.withDescription(described(batchesDescriptions.results, batchesExamples.results)))

/**
 * The `batches` command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("batches").pipe(
  Command.withDescription(described(batchesDescriptions.command, batchesExamples.command)),
  Command.withSubcommands([create, get, list, cancel, results])
)
