/**
 * The `Terminal` the command runs with, on Node's `readline`.
 *
 * Why not `NodeTerminal`: it lives in `@effect/platform-node`, an optional peer dependency, and
 * `studio-effect chat`, `run` and `assistants` must work after the README's install line alone, which does
 * not install it. `effect/cli` needs a `Terminal` only for its prompts (`--wizard`); this one does what
 * `NodeTerminal` does for them.
 */
import type * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PlatformError from "effect/PlatformError"
import * as Queue from "effect/Queue"
import * as RcRef from "effect/RcRef"
import * as Terminal from "effect/Terminal"
import * as readline from "node:readline"

const quits = (input: Terminal.UserInput): boolean =>
  input.key.name === "escape" || (input.key.ctrl && (input.key.name === "c" || input.key.name === "d"))

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

  const size = Effect.gen(function*() {
    const sizes = yield* Queue.sliding<Terminal.Size, Cause.Done>(1)
    const onResize = () => Queue.offerUnsafe(sizes, { columns: stdout.columns ?? 0, rows: stdout.rows ?? 0 })
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        stdout.off("resize", onResize)
        Queue.endUnsafe(sizes)
      })
    )
    stdout.on("resize", onResize)
    onResize()
    return sizes as Queue.Dequeue<Terminal.Size, Cause.Done>
  })

  const readInput = Effect.gen(function*() {
    yield* RcRef.get(lines)
    const inputs = yield* Queue.make<Terminal.UserInput, Cause.Done>()
    const onKeypress = (input: string | undefined, key: readline.Key) => {
      const userInput: Terminal.UserInput = {
        input: Option.fromUndefinedOr(input),
        key: { name: key.name ?? "", ctrl: key.ctrl === true, meta: key.meta === true, shift: key.shift === true }
      }
      Queue.offerUnsafe(inputs, userInput)
      if (quits(userInput)) Queue.endUnsafe(inputs)
    }
    const onEnd = () => Queue.endUnsafe(inputs)
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        stdin.off("keypress", onKeypress)
        stdin.off("end", onEnd)
      })
    )
    stdin.on("keypress", onKeypress)
    stdin.once("end", onEnd)
    return inputs as Queue.Dequeue<Terminal.UserInput, Cause.Done>
  })

  const readLine = RcRef.get(lines).pipe(
    Effect.flatMap((rl) =>
      Effect.callback<string, Terminal.QuitError>((resume) => {
        const onLine = (line: string) => resume(Effect.succeed(line))
        const onClose = () => resume(Effect.fail(new Terminal.QuitError({})))
        rl.once("line", onLine)
        rl.once("close", onClose)
        return Effect.sync(() => {
          rl.off("line", onLine)
          rl.off("close", onClose)
        })
      })
    ),
    Effect.scoped
  )

  const display = (text: string) =>
    Effect.callback<void, PlatformError.PlatformError>((resume) => {
      stdout.write(text, (error) =>
        resume(
          error === null || error === undefined
            ? Effect.void
            : Effect.fail(
              PlatformError.systemError({ _tag: "Unknown", module: "Terminal", method: "display", cause: error })
            )
        ))
    })

  return Terminal.make({
    columns: Effect.sync(() => stdout.columns ?? 0),
    rows: Effect.sync(() => stdout.rows ?? 0),
    size,
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
export const layer: Layer.Layer<Terminal.Terminal> = Layer.effect(Terminal.Terminal, make)
