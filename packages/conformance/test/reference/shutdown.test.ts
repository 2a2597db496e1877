/**
 * Closing the scope of `Reference.listen` is bounded whatever the answers under way do: one held back (here
 * by a model that never answers) is cut once `shutdownTimeout` has passed, and its connection closed.
 */
import { describe, Effect, Exit, expect, it, Scope } from "@studio-effect/line"
import * as net from "node:net"
import * as Reference from "studio-effect/reference"

describe("Reference.listen: closing its scope", () => {
  it("cuts an answer still under way after shutdownTimeout and closes its connection", async () => {
    let arrived!: () => void
    const inModel = new Promise<void>((resolve) => (arrived = resolve))
    const scope = Effect.runSync(Scope.make())
    const server = await Effect.runPromise(
      Effect.provideService(
        Reference.listen({
          port: 0,
          shutdownTimeout: "50 millis",
          model: () => Effect.andThen(Effect.sync(arrived), Effect.never)
        }),
        Scope.Scope,
        scope
      )
    )
    const socket = net.connect(server.port, "127.0.0.1")
    socket.on("error", () => {})
    const closed = new Promise<string>((resolve) => {
      let received = ""
      socket.on("data", (data) => (received += String(data)))
      socket.on("close", () => resolve(received))
    })
    const body = JSON.stringify({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] })
    socket.write(
      "POST /studio/v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\n" +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`
    )
    await inModel
    await Effect.runPromise(Scope.close(scope, Exit.void))
    // the scope closed with the answer still under way: its connection is closed, without an answer
    expect(await closed).toBe("")
  })
})
