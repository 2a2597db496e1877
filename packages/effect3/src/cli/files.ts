/**
 * `studio-effect files upload|list|get|update|delete|search|download|parsed`: the library of files a run's
 * `file_search` tool searches.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { createReadStream, createWriteStream, rmSync } from "node:fs"
import { basename } from "node:path"
import {
  cannotReadMessage,
  cannotWriteMessage,
  fileLine,
  filesDescriptions,
  filesExamples,
  savedLine,
  searchHitLine
} from "studio-effect-core/cli/files"
import { fileStatuses } from "studio-effect-core/wire/library"
import * as Library from "../Library.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import { described } from "./help.js"
import { printJson, printShown, write } from "./output.js"

const json = Options.boolean("json").pipe(Options.withDescription(filesDescriptions.json))
const labels = Options.text("label").pipe(
  Options.withAlias("l"),
  Options.repeated,
  Options.withDescription(filesDescriptions.label)
)
const path = Options.text("path").pipe(
  Options.optional,
  Options.withDescription(
    filesDescriptions.path
  )
)
const publicUrl = Options.text("public-url").pipe(
  Options.optional,
  Options.withDescription(filesDescriptions.publicUrl)
)
const fileId = Args.text({ name: "file-id" }).pipe(Args.withDescription(filesDescriptions.fileId))
const given = <K extends string, A>(key: K, option: Option.Option<A>): { readonly [k in K]?: A } =>
  Option.match(option, { onNone: () => ({}), onSome: (value) => ({ [key]: value }) as { [k in K]: A } })

/**
 * A local file's bytes as a stream, read as the upload pulls them (so its size bound stops the read); the
 * file is opened at the first pull, when its errors have a reader.
 */
const fileStream = (file: string) =>
  Stream.suspend(() =>
    Stream.fromAsyncIterable(
      createReadStream(file) as AsyncIterable<Uint8Array>,
      (cause) => new CliFailure({ message: cannotReadMessage(file, cause) })
    )
  )

const upload = Command.make(
  "upload",
  {
    file: Args.text({ name: "file" }).pipe(
      Args.withDescription(filesDescriptions.file)
    ),
    labels,
    path,
    publicUrl,
    json,
    reference: Client.reference
  },
  (options) =>
    Library.upload(fileStream(options.file), {
      name: basename(options.file),
      ...(options.labels.length > 0 ? { labels: options.labels } : {}),
      ...given("path", options.path),
      ...given("publicUrl", options.publicUrl)
    }).pipe(
      Effect.flatMap((uploaded) => options.json ? printJson(uploaded) : printShown(uploaded.fileId)),
      Effect.provide(Client.layer(options.reference))
    )
).pipe(Command.withDescription(described(filesDescriptions.upload, filesExamples.upload)))

const list = Command.make(
  "list",
  {
    labels,
    path,
    name: Options.text("name").pipe(Options.optional, Options.withDescription(filesDescriptions.name)),
    status: Options.choice("status", fileStatuses).pipe(
      Options.optional,
      Options.withDescription(filesDescriptions.status)
    ),
    json,
    reference: Client.reference
  },
  (options) =>
    Library.stream({
      ...(options.labels.length > 0 ? { label: options.labels } : {}),
      ...given("path", options.path),
      ...given("name", options.name),
      ...given("status", options.status)
    }).pipe(
      Stream.runCollect,
      Effect.map(Chunk.toReadonlyArray),
      Effect.flatMap((files) =>
        options.json
          ? printJson(files)
          : Effect.forEach(
            files,
            (file) => printShown(fileLine(file)),
            { discard: true }
          )
      ),
      Effect.provide(Client.layer(options.reference))
    )
).pipe(Command.withDescription(described(filesDescriptions.list, filesExamples.list)))

const get = Command.make(
  "get",
  { fileId, reference: Client.reference },
  (options) =>
    Library.retrieve(options.fileId).pipe(Effect.flatMap(printJson), Effect.provide(Client.layer(options.reference)))
).pipe(Command.withDescription(described(filesDescriptions.get, filesExamples.get)))

const update = Command.make(
  "update",
  { fileId, labels, publicUrl, reference: Client.reference },
  (options) =>
    Library.update(options.fileId, {
      ...(options.labels.length > 0 ? { labels: options.labels } : {}),
      ...given("publicUrl", options.publicUrl)
    }).pipe(
      Effect.andThen(printShown(`updated ${options.fileId}`)),
      Effect.provide(Client.layer(options.reference))
    )
).pipe(Command.withDescription(described(filesDescriptions.update, filesExamples.update)))

const del = Command.make(
  "delete",
  { fileId, reference: Client.reference },
  (options) =>
    Library.delete(options.fileId).pipe(
      Effect.andThen(printShown(`deleted ${options.fileId}`)),
      Effect.provide(Client.layer(options.reference))
    )
).pipe(Command.withDescription(described(filesDescriptions.delete, filesExamples.delete)))

const search = Command.make(
  "search",
  {
    query: Args.text({ name: "query" }).pipe(Args.withDescription(filesDescriptions.query)),
    labels,
    path,
    maxSegments: Options.integer("max-segments").pipe(
      Options.optional,
      Options.withDescription(filesDescriptions.maxSegments)
    ),
    json,
    reference: Client.reference
  },
  (options) =>
    Library.search({
      query: options.query,
      ...(options.labels.length > 0 ? { labels: options.labels } : {}),
      ...given("path", options.path),
      ...given("maxSegments", options.maxSegments)
    }).pipe(
      Effect.flatMap((found) =>
        options.json
          ? printJson(found)
          : Effect.forEach(
            found.results,
            (result) => printShown(searchHitLine(result)),
            { discard: true }
          )
      ),
      Effect.provide(Client.layer(options.reference))
    )
).pipe(Command.withDescription(described(filesDescriptions.search, filesExamples.search)))

/**
 * Writes a stream of bytes to a local file as they arrive, and gives how many were written; a file that
 * cannot be written stops it with why, and a download that fails leaves no partial file.
 */
const writeFile = <E, R>(
  file: string,
  bytes: Stream.Stream<Uint8Array, E, R>
): Effect.Effect<number, E | CliFailure, R> =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const out = createWriteStream(file)
      // an error is also given to the pending write's callback: this listener only keeps it from being thrown
      out.on("error", () => {})
      return out
    }),
    (out) => {
      let written = 0
      const cannotWrite = (cause: unknown) => new CliFailure({ message: cannotWriteMessage(file, cause) })
      return Stream.runForEach(bytes, (chunk) =>
        Effect.async<void, CliFailure>((resume) => {
          written += chunk.length
          out.write(chunk, (error) => resume(error == null ? Effect.void : Effect.fail(cannotWrite(error))))
        })).pipe(
          Effect.zipRight(Effect.async<void, CliFailure>((resume) => {
            out.end((error?: Error | null) => resume(error == null ? Effect.void : Effect.fail(cannotWrite(error))))
          })),
          Effect.map(() => written)
        )
    },
    (out, exit) =>
      Effect.sync(() => {
        out.destroy()
        if (exit._tag === "Failure") rmSync(file, { force: true })
      })
  )

const download = Command.make(
  "download",
  {
    fileId,
    output: Options.text("output").pipe(
      Options.withAlias("o"),
      Options.optional,
      Options.withDescription(filesDescriptions.output)
    ),
    reference: Client.reference
  },
  (options) => {
    const bytes = Library.download(options.fileId)
    return Option.match(options.output, {
      onNone: () => Stream.runForEach(bytes, write),
      onSome: (file) => Effect.flatMap(writeFile(file, bytes), (written) => printShown(savedLine(file, written)))
    }).pipe(Effect.provide(Client.layer(options.reference)))
  }
).pipe(Command.withDescription(described(filesDescriptions.download, filesExamples.download)))

const parsed = Command.make(
  "parsed",
  { fileId, json, reference: Client.reference },
  (options) =>
    Library.parsed(options.fileId).pipe(
      Effect.flatMap((file) => options.json ? printJson(file) : printShown(file.text)),
      Effect.provide(Client.layer(options.reference))
    )
).pipe(Command.withDescription(described(filesDescriptions.parsed, filesExamples.parsed)))

/**
 * The `files` command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("files").pipe(
  Command.withDescription(described(filesDescriptions.command, filesExamples.command)),
  Command.withSubcommands([upload, list, get, update, del, search, download, parsed])
)
