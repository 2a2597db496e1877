/**
 * The provider against a scripted service over a real socket: the service's errors as `APICallError`,
 * aborts at every phase, UTF-8 split across reads, reasoning, raw chunks, and hostile streams that must end
 * in a typed error within the bounds.
 */
import { APICallError, type LanguageModelV4CallOptions, type LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { generateText, streamText } from "ai"
import type { ServerResponse } from "node:http"
import { afterEach, describe, expect, it } from "vitest"
import { createStudio, type StudioProviderSettings } from "../src/index.js"
import { collect } from "./support/collect.js"
import { chunk, completion, type Handler, type Scripted, sse, startScripted } from "./support/scripted.js"

let server: Scripted | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A scripted service, and the model of a provider pointed at it. */
const scripted = async (handler: Handler, settings: StudioProviderSettings = {}) => {
  server = await startScripted(handler)
  return { server, model: createStudio({ baseURL: server.url, apiKey: "sk-test", ...settings })("fpmodel-mini") }
}

const prompt: LanguageModelV4CallOptions = { prompt: [{ role: "user", content: [{ type: "text", text: "Hi" }] }] }

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { "content-type": "application/json", "request-id": "req-42", ...headers })
  response.end(JSON.stringify(body))
}

const streamHead = (response: ServerResponse) =>
  response.writeHead(200, { "content-type": "text/event-stream", "request-id": "req-42" })

/** Writes `text` for as long as the client reads, waiting for drain between writes. */
const writeForever = (response: ServerResponse, text: string) => {
  let open = true
  response.on("close", () => {
    open = false
  })
  const write = () => {
    while (open && response.write(text)) {
      // until the socket's buffer is full
    }
    if (open) response.once("drain", write)
  }
  write()
}

/** The error an operation rejects with. */
const failure = async (operation: Promise<unknown>): Promise<unknown> => {
  try {
    await operation
  } catch (error) {
    return error
  }
  throw new Error("the operation succeeded")
}

describe("the service's errors", () => {
  it.each(
    [
      [401, { detail: "Forbidden: Bad or missing API token." }, {}, false, "Bad or missing API token"],
      [404, { detail: "Model fpmodel-x not found." }, {}, false, "Model fpmodel-x not found"],
      [
        422,
        { detail: [{ loc: ["body", "max_tokens"], msg: "Input should be less than or equal to 4096", type: "x" }] },
        {},
        false,
        "max_tokens: Input should be less than or equal to 4096"
      ],
      [429, { detail: "Too many requests." }, { "retry-after": "3" }, true, "Too many requests"],
      [500, { detail: "The model is unavailable." }, {}, true, "The model is unavailable"],
      [503, { detail: "Overloaded." }, {}, true, "Overloaded"]
    ] as const
  )("%i is an APICallError with the detail, the request id and isRetryable", async (
    status,
    body,
    headers,
    retryable,
    said
  ) => {
    const { model } = await scripted((_, response) => json(response, status, body, headers))
    const error = await failure(model.doGenerate(prompt))
    expect(APICallError.isInstance(error)).toBe(true)
    const apiError = error as APICallError
    expect(apiError.statusCode).toBe(status)
    expect(apiError.isRetryable).toBe(retryable)
    expect(apiError.message).toContain(said)
    expect(apiError.message).toContain("req-42")
    expect(apiError.message).not.toContain("sk-test")
    expect(apiError.responseHeaders?.["request-id"]).toBe("req-42")
    expect(apiError.responseBody).toBe(JSON.stringify(body))
  })

  it("a streamed request's error status is an APICallError too", async () => {
    const { model } = await scripted((_, response) => json(response, 500, { detail: "Down." }))
    const error = await failure(model.doStream(prompt))
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true })
  })

  it("ai retries a 429 (isRetryable), then gives the answer", async () => {
    let calls = 0
    const { model } = await scripted((_, response) => {
      calls++
      if (calls === 1) json(response, 429, { detail: "Too many requests." }, { "retry-after-ms": "1" })
      else json(response, 200, completion({ content: "after the retry" }))
    })
    const result = await generateText({ model, prompt: "Hi", maxRetries: 1 })
    expect(result.text).toBe("after the retry")
    expect(calls).toBe(2)
  })

  it("a redirect is not followed (the key goes nowhere else)", async () => {
    const { model, server } = await scripted((_, response) => {
      response.writeHead(307, { location: "http://127.0.0.2:1/elsewhere" })
      response.end()
    })
    const error = await failure(model.doGenerate(prompt))
    expect(error).toMatchObject({ statusCode: 307, isRetryable: false })
    expect(server.requests).toHaveLength(1)
  })

  it("the key is sent as a bearer token, headers of the provider and of the call with it", async () => {
    server = await startScripted((_, response) => json(response, 200, completion({ content: "ok" })))
    const model = createStudio({ baseURL: `${server.url}/studio/v1`, apiKey: "sk-test", headers: { "x-app": "a" } })(
      "fpmodel-mini"
    )
    await model.doGenerate({ ...prompt, headers: { "x-call": "b" } })
    const [request] = server.requests
    expect(request!.url).toBe("/studio/v1/chat/completions")
    expect(request!.headers).toMatchObject({ authorization: "Bearer sk-test", "x-app": "a", "x-call": "b" })
    expect(JSON.parse(request!.body)).toEqual({ model: "fpmodel-mini", messages: [{ role: "user", content: "Hi" }] })
  })

  it("the key and address come from STUDIO_API_KEY and STUDIO_BASE_URL, else AI21_API_KEY and AI21_API_HOST", async () => {
    server = await startScripted((_, response) => json(response, 200, completion({ content: "ok" })))
    const names = ["STUDIO_API_KEY", "STUDIO_BASE_URL", "AI21_API_KEY", "AI21_API_HOST"] as const
    const saved = names.map((name) => process.env[name])
    const sentKey = async (env: Partial<Record<typeof names[number], string>>) => {
      for (const name of names) process.env[name] = env[name] ?? ""
      await createStudio()("fpmodel-mini").doGenerate(prompt)
      return server!.requests.at(-1)!.headers["authorization"]
    }
    try {
      expect(await sentKey({ AI21_API_KEY: "sk-ai21", AI21_API_HOST: server.url })).toBe("Bearer sk-ai21")
      expect(await sentKey({ STUDIO_API_KEY: "sk-studio", AI21_API_KEY: "sk-ai21", STUDIO_BASE_URL: server.url }))
        .toBe("Bearer sk-studio")
    } finally {
      names.forEach((name, i) => {
        if (saved[i] === undefined) delete process.env[name]
        else process.env[name] = saved[i]
      })
    }
  })

  it("the prompt's messages (reasoning sent back), settings and tools as the service's fields; what it lacks as warnings", async () => {
    const { model, server } = await scripted((_, response) => json(response, 200, completion({ content: "ok" })))
    const result = await model.doGenerate({
      prompt: [
        { role: "system", content: "Be brief." },
        {
          role: "user",
          content: [{ type: "text", text: "Look" }, {
            type: "file",
            mediaType: "image/png",
            data: { type: "data", data: new Uint8Array([1]) }
          }]
        },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "A lookup answers it." },
            { type: "tool-call", toolCallId: "call-1", toolName: "lookup", input: { q: "x" } }
          ]
        },
        {
          role: "tool",
          content: [{
            type: "tool-result",
            toolCallId: "call-1",
            toolName: "lookup",
            output: { type: "json", value: { found: true } }
          }]
        }
      ],
      maxOutputTokens: 100,
      temperature: 0.5,
      topP: 0.9,
      stopSequences: ["END"],
      tools: [
        {
          type: "function",
          name: "lookup",
          description: "Looks up",
          inputSchema: { type: "object", properties: { q: { type: "string" } } }
        },
        { type: "function", name: "other", description: "Another", inputSchema: { type: "object" } }
      ],
      toolChoice: { type: "tool", toolName: "lookup" }
    })
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      model: "fpmodel-mini",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Look" },
        {
          role: "assistant",
          tool_calls: [{ id: "call-1", type: "function", function: { name: "lookup", arguments: "{\"q\":\"x\"}" } }],
          reasoning_content: "A lookup answers it."
        },
        { role: "tool", tool_call_id: "call-1", content: "{\"found\":true}" }
      ],
      tools: [{
        type: "function",
        function: {
          name: "lookup",
          description: "Looks up",
          parameters: { type: "object", properties: { q: { type: "string" } } }
        }
      }],
      max_tokens: 100,
      temperature: 0.5,
      top_p: 0.9,
      stop: ["END"]
    })
    expect(result.warnings.map((warning) => "feature" in warning ? warning.feature : "")).toEqual([
      "file parts",
      "toolChoice"
    ])
  })

  it("JSON mode: the schema in an instruction, response_format json_object, and no stream_options", async () => {
    const { model, server } = await scripted((_, response) => {
      streamHead(response)
      response.end(sse([chunk({ content: "{}" }, "stop")]))
    })
    const { stream } = await model.doStream({
      ...prompt,
      responseFormat: {
        type: "json",
        name: "person",
        schema: { type: "object", properties: { name: { type: "string" } } }
      }
    })
    await collect(stream)
    const body = JSON.parse(server.requests[0]!.body)
    expect(body.response_format).toEqual({ type: "json_object" })
    expect(body.stream).toBe(true)
    expect(Object.keys(body).sort()).toEqual(["messages", "model", "response_format", "stream"])
    expect(body.messages[0].role).toBe("system")
    expect(body.messages[0].content).toContain("named \"person\"")
    expect(body.messages[0].content).toContain(
      "JSON Schema:\n{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}"
    )
  })

  it("an answer that is not a completion is an APICallError, never retried", async () => {
    const { model } = await scripted((_, response) => json(response, 200, { choices: "none" }))
    const error = await failure(model.doGenerate(prompt))
    expect(error).toMatchObject({ isRetryable: false })
    expect((error as Error).message).toContain("Unexpected chat response")
  })
})

describe("aborts", () => {
  it("an aborted signal: nothing is sent", async () => {
    const { model, server } = await scripted((_, response) => json(response, 200, completion({ content: "x" })))
    const controller = new AbortController()
    controller.abort()
    await expect(model.doGenerate({ ...prompt, abortSignal: controller.signal })).rejects.toMatchObject({
      name: "AbortError"
    })
    await expect(model.doStream({ ...prompt, abortSignal: controller.signal })).rejects.toMatchObject({
      name: "AbortError"
    })
    expect(server.requests).toHaveLength(0)
  })

  it("an abort while waiting for the headers ends the call with the abort", async () => {
    const controller = new AbortController()
    const { model } = await scripted(() => controller.abort())
    await expect(model.doStream({ ...prompt, abortSignal: controller.signal })).rejects.toMatchObject({
      name: "AbortError"
    })
  })

  it("an abort mid-stream errors the stream with the abort, and the connection is closed", async () => {
    const controller = new AbortController()
    let closed: Promise<void> = Promise.resolve()
    const { model } = await scripted((_, response) => {
      closed = new Promise((resolve) => response.on("close", () => resolve()))
      streamHead(response)
      response.write(`data: ${JSON.stringify(chunk({ content: "first" }))}\n\n`)
    })
    const { stream } = await model.doStream({ ...prompt, abortSignal: controller.signal })
    const reader = stream.getReader()
    const seen: Array<string> = []
    while (!seen.includes("text-delta")) seen.push((await reader.read()).value!.type)
    controller.abort()
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" })
    await closed
  })

  it("streamText stops at an abort mid-stream", async () => {
    const controller = new AbortController()
    const { model } = await scripted((_, response) => {
      streamHead(response)
      response.write(`data: ${JSON.stringify(chunk({ content: "first" }))}\n\n`)
    })
    let aborted = false
    const result = streamText({
      model,
      prompt: "Hi",
      abortSignal: controller.signal,
      onAbort: () => {
        aborted = true
      }
    })
    const texts: Array<string> = []
    for await (const text of result.textStream) {
      texts.push(text)
      controller.abort()
    }
    expect(texts).toEqual(["first"])
    expect(aborted).toBe(true)
  })
})

describe("streams", () => {
  it("UTF-8 split across reads, inside characters, comes out whole", async () => {
    const text = "héllo wörld 🎉 — ✓ 日本語"
    const bytes = Buffer.from(sse([
      chunk({ role: "assistant" }),
      chunk({ content: text }),
      chunk({}, "stop", {
        prompt_tokens: 1,
        completion_tokens: 2,
        total_tokens: 3
      })
    ]))
    const { model } = await scripted(async (_, response) => {
      streamHead(response)
      for (let i = 0; i < bytes.length; i += 3) {
        response.write(bytes.subarray(i, i + 3))
        await new Promise((resolve) => setImmediate(resolve))
      }
      response.end()
    })
    const result = streamText({ model, prompt: "Hi" })
    expect(await result.text).toBe(text)
    expect((await result.usage).outputTokens).toBe(2)
  })

  it("reasoning_content on stream deltas gives reasoning parts before the text", async () => {
    const { model } = await scripted((_, response) => {
      streamHead(response)
      response.end(sse([
        chunk({ role: "assistant" }),
        chunk({ reasoning_content: "First I think, " }),
        chunk({ reasoning_content: "then I answer." }),
        chunk({ content: "The answer." }),
        chunk({}, "stop", { prompt_tokens: 1, completion_tokens: 4, total_tokens: 5 })
      ]))
    })
    const { stream } = await model.doStream(prompt)
    const parts = await collect(stream)
    expect(parts.map((part) => part.type)).toEqual([
      "stream-start",
      "response-metadata",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-delta",
      "reasoning-end",
      "text-start",
      "text-delta",
      "text-end",
      "finish"
    ])
    const result = streamText({ model, prompt: "Hi" })
    expect(await result.reasoningText).toBe("First I think, then I answer.")
    expect(await result.text).toBe("The answer.")
  })

  it("reasoning_content on a message is a reasoning part of generateText", async () => {
    const { model } = await scripted((_, response) =>
      json(response, 200, completion({ reasoning_content: "Thinking.", content: "Done." }))
    )
    const result = await generateText({ model, prompt: "Hi" })
    expect(result.reasoningText).toBe("Thinking.")
    expect(result.text).toBe("Done.")
  })

  it("includeRawChunks gives each chunk as it came", async () => {
    const events = [chunk({ content: "a" }), chunk({}, "length", null)]
    const { model } = await scripted((_, response) => {
      streamHead(response)
      response.end(sse(events))
    })
    const { stream } = await model.doStream({ ...prompt, includeRawChunks: true })
    const raws = (await collect(stream)).flatMap((part) => part.type === "raw" ? [part.rawValue] : [])
    expect(raws).toEqual(events)
  })

  const failed = (parts: ReadonlyArray<LanguageModelV4StreamPart>) => {
    const error = parts.find((part) => part.type === "error")
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "error" } })
    return error?.type === "error" ? error.error : undefined
  }

  it("an endless line ends in an APICallError naming maxEventSize", async () => {
    const { model } = await scripted((_, response) => {
      streamHead(response)
      response.write("data: ")
      writeForever(response, "x".repeat(16 * 1024))
    }, { maxEventSize: 64 * 1024 })
    const { stream } = await model.doStream(prompt)
    const error = failed(await collect(stream))
    expect(APICallError.isInstance(error)).toBe(true)
    expect((error as Error).message).toContain("larger than 64 KiB (maxEventSize)")
  })

  it("one huge event ends in an APICallError naming maxEventSize", async () => {
    const { model } = await scripted((_, response) => {
      streamHead(response)
      response.end(sse([chunk({ content: "x".repeat(100 * 1024) })]))
    }, { maxEventSize: 64 * 1024 })
    const { stream } = await model.doStream(prompt)
    expect((failed(await collect(stream)) as Error).message).toContain("(maxEventSize)")
  })

  it("endless small events, or endless comments, end in an APICallError naming maxResponseSize", async () => {
    for (const filler of [`data: ${JSON.stringify(chunk({ content: "x" }))}\n\n`, ": keep-alive\n"]) {
      const { model } = await scripted((_, response) => {
        streamHead(response)
        writeForever(response, filler.repeat(64))
      }, { maxResponseSize: 256 * 1024 })
      const { stream } = await model.doStream(prompt)
      expect((failed(await collect(stream)) as Error).message).toContain("larger than 256 KiB (maxResponseSize)")
      await server!.close()
    }
    server = undefined
  })

  it("a stream cut before [DONE] ends in a retryable APICallError after the text it gave", async () => {
    const { model } = await scripted((_, response) => {
      streamHead(response)
      response.end(`data: ${JSON.stringify(chunk({ content: "partial" }))}\n\n`)
    })
    const { stream } = await model.doStream(prompt)
    const parts = await collect(stream)
    expect(parts.filter((part) => part.type === "text-delta")).toHaveLength(1)
    const error = failed(parts)
    expect(error).toMatchObject({ isRetryable: true })
    expect((error as Error).message).toContain("before [DONE]")
  })

  it("an event that is not JSON, or not a chunk, ends in an APICallError", async () => {
    for (const event of ["{not json", JSON.stringify({ id: 1 })]) {
      const { model } = await scripted((_, response) => {
        streamHead(response)
        response.end(sse([event]))
      })
      const { stream } = await model.doStream(prompt)
      expect((failed(await collect(stream)) as Error).message).toContain("Unexpected chat response")
      await server!.close()
    }
    server = undefined
  })

  it("a non-streamed answer past maxResponseSize is refused", async () => {
    const { model } = await scripted(
      (_, response) => json(response, 200, completion({ content: "x".repeat(128 * 1024) })),
      { maxResponseSize: 64 * 1024 }
    )
    const error = await failure(model.doGenerate(prompt))
    expect((error as Error).message).toContain("(maxResponseSize)")
  })
})
