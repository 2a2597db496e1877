import { describe, expect, it } from "@effect/vitest"
import { Duration } from "effect"
import { parseServeArguments } from "../../src/reference/cli.js"

describe("studio-effect serve: arguments", () => {
  it("defaults to port 8080", () => {
    expect(parseServeArguments([])).toEqual({ port: 8080 })
  })

  it("reads every option, as separate or inline values", () => {
    const options = parseServeArguments([
      "--port=0",
      "--host",
      "127.0.0.1",
      "--api-key",
      "k1",
      "--api-key=k2",
      "--seed",
      "7",
      "--run-step-ms",
      "50",
      "--stream-delay-ms=5",
      "--rate-limit",
      "10/2",
      "--max-body-bytes",
      "2048"
    ])
    expect(options).toEqual({
      port: 0,
      host: "127.0.0.1",
      seed: 7,
      runStepDuration: Duration.millis(50),
      streamEventDelay: Duration.millis(5),
      rateLimit: { limit: 10, window: Duration.seconds(2) },
      maxBodyBytes: 2048,
      apiKeys: ["k1", "k2"]
    })
  })

  it("says what is wrong with a bad argument", () => {
    expect(parseServeArguments(["--port", "70000"])).toBe("--port needs a number from 0 to 65535")
    expect(parseServeArguments(["--max-body-bytes", "0"])).toMatch(/positive/)
    expect(parseServeArguments(["--rate-limit", "x"])).toMatch(/--rate-limit/)
    expect(parseServeArguments(["--verbose"])).toBe("unknown option --verbose")
  })
})
