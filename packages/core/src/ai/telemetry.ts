/**
 * The GenAI span attributes of a chat request and its completion, in the shape of `Telemetry`'s options in
 * the AI libraries (`addGenAIAnnotations`).
 *
 * @since 1.0.0
 */

/** The stop sequences of a request as a list; none when it has none. */
const stopSequences = (stop: string | ReadonlyArray<string> | null | undefined): ReadonlyArray<string> | undefined =>
  stop === undefined || stop === null ? undefined : typeof stop === "string" ? [stop] : stop

/** The chat parameters of a request, as a span's `request` attributes. */
export const requestAttributes = (request: {
  readonly model: string
  readonly temperature?: number | null | undefined
  readonly top_p?: number | null | undefined
  readonly max_tokens?: number | null | undefined
  readonly stop?: string | ReadonlyArray<string> | null | undefined
}) => ({
  model: request.model,
  temperature: request.temperature,
  topP: request.top_p,
  maxTokens: request.max_tokens,
  stopSequences: stopSequences(request.stop)
})

/**
 * A completion's id, finish reasons and token counts, as a span's `response` and `usage` attributes; `checked`
 * is applied to the texts of the service (the id and the reasons) before a span carries them.
 */
export const completionAttributes = (
  completion: {
    readonly id: string
    readonly choices: ReadonlyArray<{ readonly finish_reason: string | null }>
    readonly usage: { readonly prompt_tokens: number; readonly completion_tokens: number }
  },
  checked: (text: string) => string
) => ({
  response: {
    id: checked(completion.id),
    finishReasons: completion.choices.map((choice) => checked(choice.finish_reason ?? "unknown"))
  },
  usage: { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens }
})
