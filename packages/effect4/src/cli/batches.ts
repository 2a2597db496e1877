/**
 * `studio-effect batches create|get|list|cancel|results`: batches of chat requests run from a JSONL file.
 */
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { createReadStream } from "node:fs"
import { basename } from "node:path"
import { batchesDescriptions, batchesExamples, batchLine, parseMetadataPairs } from "studio-effect-core/cli/batches"
import { cannotReadMessage } from "studio-effect-core/cli/files"
import { isFinishedBatchStatus } from "studio-effect-core/wire/batches"
import type { Batch } from "../BatchSchema.js"
import type { StudioClient } from "../StudioClient.js"
import type { RequestError } from "../StudioError.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import * as Modules from "./modules.js"
import { printJson, printShown } from "./stdio.js"

const json = Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription(batchesDescriptions.json))
const batchId = Argument.String("batch-id").pipe(Argument.withDescription(batchesDescriptions.batchId))

/** A local file's bytes as a stream, read as the create pulls them (so its size bound stops the read). */
const fileStream = (file: string) =>
  Stream.fromAsyncIterable(
    createReadStream(file) as AsyncIterable<Uint8Array>,
    (cause) => new CliFailure({ message: cannotReadMessage(file, cause) })
  )

const isFinished = (batch: Batch) => isFinishedBatchStatus(batch.status)

const create = Command.make(
  "create",
  {
    file: Argument.String("file").pipe(Argument.withDescription(batchesDescriptions.file)),
    metadata: Flag.String("metadata").pipe(Flag.atLeast(0), Flag.withDescription(batchesDescriptions.metadata)),
    wait: Flag.Boolean("wait").pipe(Flag.withDefault(false), Flag.withDescription(batchesDescriptions.wait)),
    json,
    reference: Client.reference
  },
  (options) =>
    Effect.gen(function*() {
      const Batches = yield* Modules.Batches
      const metadata = parseMetadataPairs(options.metadata)
      if (metadata._tag === "Invalid") return yield* new CliFailure({ message: metadata.message })
      /** The batch once it has finished, retrieved every second. */
      const finished = (batch: Batch): Effect.Effect<Batch, RequestError, StudioClient> =>
        isFinished(batch)
          ? Effect.succeed(batch)
          : Effect.flatMap(Effect.andThen(Effect.sleep("1 second"), Batches.retrieve(batch.id)), finished)
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
).pipe(Command.withDescription(batchesDescriptions.create), Command.withExamples(batchesExamples.create))

const get = Command.make(
  "get",
  { batchId, reference: Client.reference },
  (options) =>
    Effect.flatMap(Modules.Batches, (Batches) =>
      Batches.retrieve(options.batchId).pipe(
        Effect.flatMap(printJson),
        Effect.provide(Client.layer(options.reference))
      ))
).pipe(Command.withDescription(batchesDescriptions.get), Command.withExamples(batchesExamples.get))

const list = Command.make(
  "list",
  { json, reference: Client.reference },
  (options) =>
    Effect.flatMap(Modules.Batches, (Batches) =>
      Batches.stream().pipe(
        Stream.runCollect,
        Effect.flatMap((batches) =>
          options.json
            ? printJson(batches)
            : Effect.forEach(batches, (batch) => printShown(batchLine(batch)), { discard: true })
        ),
        Effect.provide(Client.layer(options.reference))
      ))
).pipe(Command.withDescription(batchesDescriptions.list), Command.withExamples(batchesExamples.list))

const cancel = Command.make(
  "cancel",
  { batchId, json, reference: Client.reference },
  (options) =>
    Effect.flatMap(Modules.Batches, (Batches) =>
      Batches.cancel(options.batchId).pipe(
        Effect.flatMap((batch) => options.json ? printJson(batch) : printShown(batchLine(batch))),
        Effect.provide(Client.layer(options.reference))
      ))
).pipe(Command.withDescription(batchesDescriptions.cancel), Command.withExamples(batchesExamples.cancel))

const results = Command.make(
  "results",
  {
    batchId,
    error: Flag.Boolean("error").pipe(Flag.withDefault(false), Flag.withDescription(batchesDescriptions.error)),
    force: Flag.Boolean("force").pipe(Flag.withDefault(false), Flag.withDescription(batchesDescriptions.force)),
    reference: Client.reference
  },
  (options) =>
    Effect.flatMap(Modules.Batches, (Batches) =>
      Batches.results(options.batchId, {
        fileType: options.error ? "error" : "output",
        ...(options.force ? { force: true } : {})
      }).pipe(
        Effect.flatMap((lines) => Effect.forEach(lines, (line) => printShown(JSON.stringify(line)), { discard: true })),
        Effect.provide(Client.layer(options.reference))
      ))
).pipe(Command.withDescription(batchesDescriptions.results), Command.withExamples(batchesExamples.results))

/**
 * The `batches` command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("batches").pipe(
  Command.withDescription(batchesDescriptions.command),
  Command.withExamples(batchesExamples.command),
  Command.withSubcommands([create, get, list, cancel, results])
)
