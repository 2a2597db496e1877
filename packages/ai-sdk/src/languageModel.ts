/**
 * A Studio chat model as the AI SDK's `LanguageModelV4`: `doGenerate` sends one chat completion request,
 * `doStream` streams one (or, for a request with tools, which the service does not stream, generates it and
 * gives its parts as a stream).
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  SharedV4Warning
} from "@ai-sdk/provider"
import { firstChoice } from "studio-effect-core/ai/responseParts"
import { endpoints } from "studio-effect-core/wire/endpoints"
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  chunkProblem,
  completionProblem,
  finishReasonOf,
  usageOf
} from "./answer.js"
import { chatRequestOf } from "./chatRequest.js"
import { EventReader } from "./eventStream.js"
import { type Answer, type Connection, type Request, send, sendJson, unexpectedAnswer } from "./http.js"
import { ChunkParts, completionContent, completionStreamParts } from "./streamParts.js"

/** The ids of the Studio chat models (any other id is sent as given). */
export type StudioChatModelId = "fpmodel-mini" | "fpmodel-large" | (string & {})

/** The chat request of a call, as `Request` sends it. */
const chatCall = (
  body: unknown,
  options: LanguageModelV4CallOptions,
  streamed: boolean
): Request => ({
  operation: "chat",
  method: "POST",
  path: endpoints.chatCreate.path,
  body: JSON.stringify(body),
  contentType: "application/json",
  accept: streamed ? "text/event-stream" : "application/json",
  requestBodyValues: body,
  headers: options.headers,
  abortSignal: options.abortSignal
})

export class StudioLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4"
  readonly supportedUrls: Record<string, Array<RegExp>> = {}

  constructor(
    readonly modelId: StudioChatModelId,
    readonly provider: string,
    private readonly connection: Connection
  ) {}

  /** Sends a request unstreamed and gives its completion, checked against the interface. */
  private async complete(request: Request): Promise<Answer & { readonly completion: ChatCompletion }> {
    const answer = await sendJson(this.connection, request)
    const problem = completionProblem(answer.value)
    if (problem !== undefined) throw unexpectedAnswer(answer, request, problem)
    return { ...answer, completion: answer.value as ChatCompletion }
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { request, warnings } = chatRequestOf(this.modelId, options, false)
    const call = chatCall(request, options, false)
    const { completion, responseHeaders } = await this.complete(call)
    return {
      content: completionContent(completion),
      finishReason: finishReasonOf(firstChoice(completion.choices)!.finish_reason),
      usage: usageOf(completion.usage),
      request: { body: request },
      response: { id: completion.id, modelId: this.modelId, headers: responseHeaders, body: completion },
      warnings
    }
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const { request, warnings } = chatRequestOf(this.modelId, options, true)
    const call = chatCall(request, options, request.stream === true)
    const raw = options.includeRawChunks === true
    if (request.stream !== true) {
      const { completion, responseHeaders } = await this.complete(call)
      const parts: Array<LanguageModelV4StreamPart> = [
        { type: "stream-start", warnings },
        ...(raw ? [{ type: "raw", rawValue: completion } as const] : []),
        ...completionStreamParts(completion, this.modelId)
      ]
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part)
            controller.close()
          }
        }),
        request: { body: request },
        response: { headers: responseHeaders }
      }
    }
    const answer = await send(this.connection, call)
    return {
      stream: this.partsOf(call, answer, warnings, raw),
      request: { body: request },
      response: { headers: answer.responseHeaders }
    }
  }

  /**
   * The parts of a streamed answer, read as they are pulled. A malformed or oversized stream, or one cut
   * short, gives an `error` part and a finish of reason `error`; an abort errors the stream with its reason.
   */
  private partsOf(
    call: Request,
    answer: Answer,
    warnings: Array<SharedV4Warning>,
    raw: boolean
  ): ReadableStream<LanguageModelV4StreamPart> {
    const events = new EventReader(this.connection, call, answer)
    const parts = new ChunkParts(this.modelId)
    let started = false
    return new ReadableStream<LanguageModelV4StreamPart>({
      pull: async (controller) => {
        if (!started) {
          started = true
          controller.enqueue({ type: "stream-start", warnings })
          return
        }
        try {
          while (true) {
            const data = await events.next()
            if (data === undefined) {
              for (const part of parts.end()) controller.enqueue(part)
              controller.close()
              return
            }
            let chunk: unknown
            try {
              chunk = JSON.parse(data)
            } catch (cause) {
              throw unexpectedAnswer(answer, call, `an event is not JSON: ${data.slice(0, 200)}`, cause)
            }
            const problem = chunkProblem(chunk)
            if (problem !== undefined) throw unexpectedAnswer(answer, call, problem)
            if (raw) controller.enqueue({ type: "raw", rawValue: chunk })
            const out = parts.add(chunk as ChatCompletionChunk)
            for (const part of out) controller.enqueue(part)
            if (out.length > 0 || raw) return
          }
        } catch (error) {
          events.cancel()
          if (call.abortSignal?.aborted === true) {
            controller.error(call.abortSignal.reason)
            return
          }
          controller.enqueue({ type: "error", error })
          for (const part of parts.failed()) controller.enqueue(part)
          controller.close()
        }
      },
      cancel: () => events.cancel()
    })
  }
}
