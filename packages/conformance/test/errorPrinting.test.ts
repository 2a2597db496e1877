/**
 * How an error of the package prints. Effect's own rendering of a failure (`Cause.pretty`, which a logged cause
 * and `runMain`'s report use) shows it as its tag and message, then the span of the call that failed, with no
 * frame of the package or of Effect's runtime. `StudioError.reportInOneLine`, the `runMain` options of the
 * docs' programs, prints one line per error (its tag and message); a defect keeps Effect's rendering with its
 * stack, an interruption prints nothing, and the exit code is Effect's. (A program run with them is tested in
 * a process of its own by docs-samples.test.ts and reference/examples.test.ts.)
 */
import {
  afterEach,
  Cause,
  combineCauses,
  describe,
  Duration,
  Effect,
  equals,
  Exit,
  expect,
  interruptedExitCode,
  it,
  vi
} from "@studio-effect/line"
import { inspect } from "node:util"
import { Assistants, Chat, StudioError } from "studio-effect"
import * as Reference from "studio-effect/reference"

const refused = new StudioError.AuthError({ status: 401, detail: "Forbidden.", requestId: "req-1" })
const invalid = new StudioError.ValidationError({
  operation: "chat.create",
  source: "client",
  issues: [
    new StudioError.ValidationIssue({ path: "messages", message: "send at least one message" }),
    new StudioError.ValidationIssue({ path: "model", message: "is required" })
  ]
})

/** What the teardown printed on stderr, and the exit code it gave. */
const tearDown = (exit: Exit.Exit<unknown, unknown>) => {
  const printed: Array<string> = []
  vi.spyOn(console, "error").mockImplementation((...args) => void printed.push(args.join(" ")))
  let code: number | undefined
  StudioError.reportInOneLine.teardown(exit, (exitCode) => code = exitCode)
  return { printed: printed.join("\n"), code }
}

afterEach(() => vi.restoreAllMocks())

describe("an error as Effect prints it", () => {
  it.effect("is its tag and message, then the span of the call that failed", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Assistants.retrieve("asst_missing"))
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isSuccess(exit)) return
      const lines = Cause.pretty(exit.cause).split("\n")
      expect(lines[0]).toMatch(/^NotFound: 404 .*Check the id/)
      expect(lines.slice(1)).toEqual([expect.stringMatching(/^\s+at studio\.assistants\.retrieve\b/)])
    }).pipe(Effect.provide(Reference.layerClient())))

  it("keeps its tag, fields, class, equality and JSON: its stack alone is its first line", () => {
    const same = new StudioError.AuthError({ status: 401, detail: "Forbidden.", requestId: "req-1" })
    expect(refused.stack).toBe(`AuthError: ${refused.message}`)
    expect([refused._tag, refused.status, refused.requestId]).toEqual(["AuthError", 401, "req-1"])
    expect(refused).toBeInstanceOf(StudioError.AuthError)
    expect(equals(refused, same)).toBe(true)
    expect(JSON.parse(JSON.stringify(refused))).toEqual({
      _tag: "AuthError",
      status: 401,
      detail: "Forbidden.",
      requestId: "req-1"
    })
  })
})

describe("an error as Node prints it (console.error, util.inspect, String)", () => {
  const limited = new StudioError.RateLimit({
    detail: "Too many requests.",
    retryAfter: Duration.millis(1500),
    requestId: "req-429",
    headers: { "retry-after-ms": "1500" }
  })
  const every = [
    refused,
    invalid,
    limited,
    new StudioError.NotFound({ detail: "Not Found", method: "GET", url: "https://api.ai21.com/v1/assistants" }),
    new StudioError.ApiError({ status: 500, body: "{}", detail: "boom", retryAfter: Duration.seconds(1) }),
    new StudioError.TransportError({ method: "POST", url: "https://api.ai21.com/x", reason: "ECONNRESET" }),
    new StudioError.TimeoutError({ phase: "attempt", timeout: Duration.seconds(10), method: "GET", url: "https://a/" }),
    new StudioError.PollTimeout({ runId: "run-1" }),
    new Chat.ToolCallError({ reason: "UnknownTool", toolName: "x", toolCallId: "call-1", arguments: "{}", round: 1 })
  ]

  it("is its class name and message, then its status, request id and retryAfterMs", () => {
    expect(inspect(limited)).toBe(
      `[RateLimit: ${limited.message}] {\n  status: 429,\n  requestId: 'req-429',\n  retryAfterMs: 1500\n}`
    )
    expect(inspect(refused)).toBe(`[AuthError: ${refused.message}] {\n  status: 401,\n  requestId: 'req-1'\n}`)
    for (const error of every) {
      const head = `[${error._tag}: ${error.message}]`
      const printed = inspect(error)
      expect(printed.startsWith(head), printed).toBe(true)
      expect(["", " {"], error._tag).toContain(printed.slice(head.length, head.length + 2))
      expect(String(error), error._tag).toBe(`${error._tag}: ${error.message}`)
    }
  })

  it("shows no field but status, request id and retryAfterMs: not the headers, body or Duration objects", () => {
    expect(inspect(limited)).not.toMatch(/Duration|headers|retry-after-ms|_tag/)
    expect(inspect(every[4])).not.toMatch(/body|detail:/)
  })

  it("gives the delay asked for in milliseconds, and nothing when none was named", () => {
    expect(limited.retryAfterMs).toBe(1500)
    expect(new StudioError.RateLimit({ detail: "slow" }).retryAfterMs).toBeUndefined()
    expect((every[4] as StudioError.ApiError).retryAfterMs).toBe(1000)
  })

  it("prints as it did inside Effect: Cause.pretty and JSON are unchanged by it", () => {
    expect(Cause.pretty(Cause.fail(limited)).split("\n")[0]).toBe(`RateLimit: ${limited.message}`)
    expect(JSON.parse(JSON.stringify(limited))).toMatchObject({ _tag: "RateLimit", requestId: "req-429" })
  })
})

describe("StudioError.reportInOneLine", () => {
  it("turns off Effect's own report, which logs the whole cause on stdout", () => {
    expect(StudioError.reportInOneLine.disableErrorReporting).toBe(true)
  })

  it("prints a failure as its tag and message, on one line, and exits 1", () => {
    expect(tearDown(Exit.fail(refused))).toEqual({
      printed:
        "AuthError: 401 Forbidden (request id req-1). Check the API key (STUDIO_API_KEY, or the apiKey option) " +
        "and its permissions.",
      code: 1
    })
    expect(tearDown(Exit.fail(invalid)).printed).toBe(
      "ValidationError: Invalid chat.create request: messages: send at least one message; model: is required. " +
        "Fix the fields listed above; nothing was sent."
    )
  })

  it("prints one line for each of several failures", () => {
    const { code, printed } = tearDown(Exit.failCause(combineCauses(Cause.fail(refused), Cause.fail(invalid))))
    expect(printed.split("\n").map((line) => line.split(":")[0])).toEqual(["AuthError", "ValidationError"])
    expect(code).toBe(1)
  })

  it("prints a defect as Effect does, with its stack", () => {
    const { code, printed } = tearDown(Exit.die(new TypeError("a bug")))
    expect(printed).toMatch(/^TypeError: a bug\n\s+at /)
    expect(code).toBe(1)
  })

  it("prints nothing for an interruption, whose code is the one Effect gives it", () => {
    expect(tearDown(Effect.runSyncExit(Effect.interrupt))).toEqual({ printed: "", code: interruptedExitCode })
    expect(tearDown(Exit.void)).toEqual({ printed: "", code: 0 })
  })
})
