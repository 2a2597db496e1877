/**
 * The `Terminal` the command runs with, on Node's `readline`.
 *
 * Why not `NodeTerminal`: it lives in `@effect/platform-node`, an optional peer dependency (its own peers
 * pull in `@effect/cluster`, `@effect/rpc` and `@effect/sql`), and `studio-effect chat`, `run` and
 * `assistants` must work after the README's install line alone, which does not install it. `@effect/cli`
 * needs a `Terminal` only for its prompts (`--wizard`); this one does what `NodeTerminal` does for them.
 */
import * as PlatformError from "@effect/platform/Error"
import * as Terminal from "@effect/platform/Terminal"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Mailbox from "effect/Mailbox"
import * as Option from "effect/Option"
import * as RcRef from "effect/RcRef"
import * as readline from "node:readline"

const quits = (input: Terminal.UserInput): boolean =>
  input.key.ctrl && (input.key.name === "c" || input.key.name === "d")

const make = Effect.gen(function*() {
  const stdin = process.stdin
  const stdout = process.stdout
  // stdin is taken over (raw mode) only while a prompt reads it, so piped input stays readable otherwise
  const lines = yield* RcRef.make({
    acquire: Effect.acquireRelease(
      Effect.sync(() => {
        const rl = readline.createInterface({ input: stdin, escapeCodeTimeout: 50 })
        readline.emitKeypressEvents(stdin, rl)
        if (stdin.isTTY) stdin.setRawMode(true)
        return rl
      }),
      (rl) =>
        Effect.sync(() => {
          if (stdin.isTTY) stdin.setRawMode(false)
          rl.close()
        })
    )
  })

  const readInput = Effect.gen(function*() {
    yield* RcRef.get(lines)
    const mailbox = yield* Mailbox.make<Terminal.UserInput>()
    const onKeypress = (input: string | undefined, key: readline.Key) => {
      const userInput: Terminal.UserInput = {
        input: Option.fromNullable(input),
        key: { name: key.name ?? "", ctrl: key.ctrl === true, meta: key.meta === true, shift: key.shift === true }
      }
      mailbox.unsafeOffer(userInput)
      if (quits(userInput)) mailbox.unsafeDone(Exit.void)
    }
    yield* Effect.addFinalizer(() => Effect.sync(() => stdin.off("keypress", onKeypress)))
    stdin.on("keypress", onKeypress)
    return mailbox as Mailbox.ReadonlyMailbox<Terminal.UserInput>
  })

  const readLine = RcRef.get(lines).pipe(
    Effect.flatMap((rl) =>
      Effect.async<string, Terminal.QuitException>((resume) => {
        const onLine = (line: string) => resume(Effect.succeed(line))
        rl.once("line", onLine)
        return Effect.sync(() => rl.off("line", onLine))
      })
    ),
    Effect.scoped
  )

  const display = (text: string) =>
    Effect.async<void, PlatformError.PlatformError>((resume) => {
      stdout.write(text, (error) =>
        resume(
          error === null || error === undefined
            ? Effect.void
            : Effect.fail(
              new PlatformError.SystemError({
                module: "Terminal",
                method: "display",
                reason: "Unknown",
                description: error.message
              })
            )
        ))
    })

  return Terminal.Terminal.of({
    columns: Effect.sync(() => stdout.columns ?? 0),
    rows: Effect.sync(() => stdout.rows ?? 0),
    isTTY: Effect.sync(() => stdout.isTTY === true),
    readInput,
    readLine,
    display
  })
})

/**
 * The terminal of the process: stdin and stdout.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Terminal.Terminal> = Layer.scoped(Terminal.Terminal, make)
