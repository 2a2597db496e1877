/**
 * `studio-effect files upload|list|get|update|delete|search|download|parsed`: the library of files a run's
 * `file_search` tool searches.
 */
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stdio from "effect/Stdio"
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
import * as Client from "./client.js"
import { CliFailure } from "./failure.js"
import * as Modules from "./modules.js"
import { printJson, printShown } from "./stdio.js"

const json = Flag.Boolean("json").pipe(
  Flag.withDefault(false),
  Flag.withDescription(filesDescriptions.json)
)
const labels = Flag.String("label").pipe(
  Flag.withAlias("l"),
  Flag.atLeast(0),
  Flag.withDescription(filesDescriptions.label)
)
const path = Flag.String("path").pipe(
  Flag.optional,
  Flag.withDescription(filesDescriptions.path)
)
const publicUrl = Flag.String("public-url").pipe(Flag.optional, Flag.withDescription(filesDescriptions.publicUrl))
const fileId = Argument.String("file-id").pipe(Argument.withDescription(filesDescriptions.fileId))
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
    file: Argument.String("file").pipe(
      Argument.withDescription(filesDescriptions.file)
    ),
    labels,
    path,
    publicUrl,
    json,
    reference: Client.reference
  },
  (options) =>
    Effect.flatMap(Modules.Library, (Library) =>
      Library.upload(fileStream(options.file), {
        name: basename(options.file),
        ...(options.labels.length > 0 ? { labels: options.labels } : {}),
        ...given("path", options.path),
        ...given("publicUrl", options.publicUrl)
      }).pipe(
        Effect.flatMap((uploaded) => options.json ? printJson(uploaded) : printShown(uploaded.fileId)),
        Effect.provide(Client.layer(options.reference))
      ))
).pipe(Command.withDescription(filesDescriptions.upload), Command.withExamples(filesExamples.upload))

const list = Command.make(
  "list",
  {
    labels,
    path,
    name: Flag.String("name").pipe(Flag.optional, Flag.withDescription(filesDescriptions.name)),
    status: Flag.Literals("status", fileStatuses).pipe(
      Flag.optional,
      Flag.withDescription(filesDescriptions.status)
    ),
    json,
    reference: Client.reference
  },
  (options) =>
    Effect.flatMap(Modules.Library, (Library) =>
      Library.stream({
        ...(options.labels.length > 0 ? { label: options.labels } : {}),
        ...given("path", options.path),
        ...given("name", options.name),
        ...given("status", options.status)
      }).pipe(
        Stream.runCollect,
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
      ))
).pipe(Command.withDescription(filesDescriptions.list), Command.withExamples(filesExamples.list))

const get = Command.make(
  "get",
  { fileId, reference: Client.reference },
  (options) =>
    Effect.flatMap(
      Modules.Library,
      (Library) =>
        Library.retrieve(options.fileId).pipe(
          Effect.flatMap(printJson),
          Effect.provide(Client.layer(options.reference))
        )
    )
).pipe(Command.withDescription(filesDescriptions.get), Command.withExamples(filesExamples.get))

const update = Command.make(
  "update",
  { fileId, labels, publicUrl, reference: Client.reference },
  (options) =>
    Effect.flatMap(Modules.Library, (Library) =>
      Library.update(options.fileId, {
        ...(options.labels.length > 0 ? { labels: options.labels } : {}),
        ...given("publicUrl", options.publicUrl)
      }).pipe(
        Effect.andThen(printShown(`updated ${options.fileId}`)),
        Effect.provide(Client.layer(options.reference))
      ))
).pipe(Command.withDescription(filesDescriptions.update), Command.withExamples(filesExamples.update))

const del = Command.make(
  "delete",
  { fileId, reference: Client.reference },
  (options) =>
    Effect.flatMap(Modules.Library, (Library) =>
      Library.delete(options.fileId).pipe(
        Effect.andThen(printShown(`deleted ${options.fileId}`)),
        Effect.provide(Client.layer(options.reference))
      ))
).pipe(Command.withDescription(filesDescriptions.delete), Command.withExamples(filesExamples.delete))

const search = Command.make(
  "search",
  {
    query: Argument.String("query").pipe(Argument.withDescription(filesDescriptions.query)),
    labels,
    path,
    maxSegments: Flag.Int("max-segments").pipe(
      Flag.optional,
      Flag.withDescription(filesDescriptions.maxSegments)
    ),
    json,
    reference: Client.reference
  },
  (options) =>
    Effect.flatMap(Modules.Library, (Library) =>
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
      ))
).pipe(Command.withDescription(filesDescriptions.search), Command.withExamples(filesExamples.search))

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
        Effect.callback<void, CliFailure>((resume) => {
          written += chunk.length
          out.write(chunk, (error) => resume(error == null ? Effect.void : Effect.fail(cannotWrite(error))))
        })).pipe(
          Effect.andThen(Effect.callback<void, CliFailure>((resume) => {
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
    output: Flag.String("output").pipe(
      Flag.withAlias("o"),
      Flag.optional,
      Flag.withDescription(filesDescriptions.output)
    ),
    reference: Client.reference
  },
  (options) =>
    Effect.flatMap(Modules.Library, (Library) => {
      const bytes = Library.download(options.fileId)
      return Option.match(options.output, {
        onNone: () => Stdio.Stdio.use((stdio) => Stream.run(bytes, stdio.stdout())),
        onSome: (file) => Effect.flatMap(writeFile(file, bytes), (written) => printShown(savedLine(file, written)))
      }).pipe(Effect.provide(Client.layer(options.reference)))
    })
).pipe(Command.withDescription(filesDescriptions.download), Command.withExamples(filesExamples.download))

const parsed = Command.make(
  "parsed",
  { fileId, json, reference: Client.reference },
  (options) =>
    Effect.flatMap(Modules.Library, (Library) =>
      Library.parsed(options.fileId).pipe(
        Effect.flatMap((file) => options.json ? printJson(file) : printShown(file.text)),
        Effect.provide(Client.layer(options.reference))
      ))
).pipe(Command.withDescription(filesDescriptions.parsed), Command.withExamples(filesExamples.parsed))

/**
 * The `files` command and its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("files").pipe(
  Command.withDescription(filesDescriptions.command),
  Command.withExamples(filesExamples.command),
  Command.withSubcommands([upload, list, get, update, del, search, download, parsed])
)
