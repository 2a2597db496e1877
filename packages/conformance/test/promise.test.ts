/**
 * The Promise API (`studio-effect/promise`) as code without Effect uses it: `new Studio(...)` over a real
 * socket on 127.0.0.1 (the reference service served by `Reference.listen`) and `Studio.reference()` in
 * memory. Calls resolve with the operation's value, reject with the operation's own tagged error (not a
 * wrapper), and stop when their `AbortSignal` aborts.
 */
import { afterAll, beforeAll, describe, Effect, Exit, expect, it, Schedule, Scope } from "@studio-effect/line"
import { AuthError, NotFound, ValidationError } from "@studio-effect/line/src/StudioError.js"
import { Studio } from "studio-effect/promise"
import * as Reference from "studio-effect/reference"

const key = "sk-promise-0123456789"
const request = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Tell me about the sea" }] }

const quickly = Schedule.spaced("5 millis")

const scope = Effect.runSync(Scope.make())
let url: string

beforeAll(async () => {
  const listening = await Effect.runPromise(
    Effect.provideService(
      Reference.listen({ apiKeys: [key], streamEventDelay: "20 millis", runStepDuration: "1 millis" }),
      Scope.Scope,
      scope
    )
  )
  url = listening.url
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const clients = {
  "over a socket": () => new Studio({ apiKey: key, baseUrl: url, allowInsecureHttp: true, maxRetries: 0 }),
  "in memory": () => Studio.reference({ apiKeys: [key], runStepDuration: "1 millis" })
}

for (const [name, make] of Object.entries(clients)) {
  describe(`Studio (${name})`, () => {
    it("answers a chat completion, a stream, a run and an assistant's run", async () => {
      const studio = make()
      try {
        const reply = await studio.chat.create(request)
        expect(reply.choices[0]?.message.content).toMatch(/\S/)

        let text = ""
        for await (const delta of studio.chat.streamText(request)) text += delta
        expect(text).toMatch(/\S/)

        const chunks = []
        for await (const chunk of studio.chat.stream(request)) chunks.push(chunk)
        expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop")

        const run = await studio.maestro.createAndPoll({ input: "Write a haiku" }, { schedule: quickly })
        expect(run.status).toBe("completed")
        expect((await studio.maestro.retrieve(run.id)).id).toBe(run.id)

        const assistant = await studio.assistants.create({ name: "Greeter" })
        expect((await studio.assistants.list()).results.map((a) => a.id)).toContain(assistant.id)
        const updated = await studio.assistants.update(assistant.id, { description: "Says hello" })
        expect(updated.description).toBe("Says hello")
        const answer = await studio.assistants.runAndPoll(assistant.id, {
          input: [{ role: "user", content: "Hi" }]
        }, { schedule: quickly })
        expect(answer.status).toBe("completed")
        expect((await studio.assistants.delete(assistant.id)).deleted).toBe(true)

        const models = await studio.models.list()
        expect(JSON.stringify(models)).toContain("fpmodel-mini")
      } finally {
        await studio.close()
      }
    })

    it("rejects with the operation's tagged error, with its tag and status", async () => {
      const studio = make()
      try {
        const missing = await studio.assistants.retrieve("asst_missing").then(() => undefined, (e: unknown) => e)
        expect(missing).toBeInstanceOf(NotFound)
        expect((missing as NotFound)._tag).toBe("NotFound")
        expect((missing as NotFound).status).toBe(404)

        const invalid = await studio.chat.create({ ...request, n: 99 }).then(() => undefined, (e: unknown) => e)
        expect(invalid).toBeInstanceOf(ValidationError)

        let streamed: unknown
        try {
          for await (const _ of studio.chat.streamText({ ...request, model: "" })) void _
        } catch (error) {
          streamed = error
        }
        expect(streamed).toBeInstanceOf(ValidationError)
      } finally {
        await studio.close()
      }
    })

    it("stops a call and a stream when the signal aborts, rejecting with its reason", async () => {
      const studio = make()
      try {
        const reason = new Error("the user left")
        const controller = new AbortController()
        const polling = studio.maestro.createAndPoll({ input: "Write a haiku" }, {
          signal: controller.signal,
          schedule: Schedule.spaced("1 hour")
        })
        setImmediate(() => controller.abort(reason))
        await expect(polling).rejects.toBe(reason)

        const streamController = new AbortController()
        let received = 0
        let thrown: unknown
        try {
          for await (const _ of studio.chat.streamText(request, { signal: streamController.signal })) {
            received++
            if (received === 2) streamController.abort(reason)
          }
        } catch (error) {
          thrown = error
        }
        expect(thrown).toBe(reason)
        expect(received).toBe(2)

        await expect(studio.chat.create(request, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
      } finally {
        await studio.close()
      }
    })
  })
}

describe("Studio's key", () => {
  it("is read from STUDIO_API_KEY when not given, and its absence is an AuthError", async () => {
    const saved = process.env["STUDIO_API_KEY"]
    try {
      process.env["STUDIO_API_KEY"] = key
      const studio = new Studio({ baseUrl: url, allowInsecureHttp: true })
      expect((await studio.chat.create(request)).choices).toHaveLength(1)
      await studio.close()

      delete process.env["STUDIO_API_KEY"]
      const keyless = new Studio({ baseUrl: url, allowInsecureHttp: true })
      const error = await keyless.chat.create(request).then(() => undefined, (e: unknown) => e)
      expect(error).toBeInstanceOf(AuthError)
      expect((error as AuthError)._tag).toBe("AuthError")
      await keyless.close()
    } finally {
      if (saved === undefined) delete process.env["STUDIO_API_KEY"]
      else process.env["STUDIO_API_KEY"] = saved
    }
  })

  it("never appears in a rejection", async () => {
    const secret = "sk-secret-never-shown-42"
    const studio = new Studio({ apiKey: secret, baseUrl: url, allowInsecureHttp: true, maxRetries: 0 })
    const error = await studio.chat.create(request).then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(AuthError)
    expect((error as AuthError).status).toBe(401)
    expect(`${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`).not.toContain(secret)
    await studio.close()
  })
})
