/**
 * `studio-effect files upload|list|get|update|delete|search`: the library of files a run's `file_search`
 * tool searches.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { createReadStream } from "node:fs"
import { basename } from "node:path"
import {
  cannotReadMessage,
  fileLine,
  filesDescriptions,
  filesExamples,
  searchHitLine
} from "studio-effect-core/cli/files"
import { fileStatuses } from "studio-effect-core/wire/library"
import * as Library from "../Library.js"
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import { described } from "./help.js"
import { printJson, printShown } from "./output.js"

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

/** A local file's bytes as a stream, read as the upload pulls them (so its size bound stops the read). */
const fileStream = (file: string) =>
  Stream.fromAsyncIterable(
    createReadStream(file) as AsyncIterable<Uint8Array>,
    (cause) => new CliFailure({ message: cannotReadMessage(file, cause) })
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
 * The `files` command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("files").pipe(
  Command.withDescription(described(filesDescriptions.command, filesExamples.command)),
  Command.withSubcommands([upload, list, get, update, del, search])
)
