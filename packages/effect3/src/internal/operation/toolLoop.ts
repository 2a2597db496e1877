/**
 * The tool loop of `Chat.runTools` and `DurableChat.runTools`: create a completion, run the handler of each
 * tool call it makes, send the answers back, and repeat until an answer without tool calls or the round limit.
 */
import * as Effect from "effect/Effect"
import { answerText, checkRound, toolLoopLimits } from "studio-effect-core/chat/toolRound"
import type { ChatCompletion, ChatRequest, ToolCall } from "../../ChatSchema.js"
import { StudioClient } from "../../StudioClient.js"
import { ToolCallError, ValidationError, ValidationIssue } from "../../StudioError.js"
import { spanOptions } from "./telemetry.js"

/** A message of a chat request, as it is sent. */
type Message = ChatRequest["messages"][number]

/**
 * The handler of each tool, by function name: an `Effect` from the call's parsed arguments (the JSON of
 * `function.arguments`; empty arguments are `{}`) to the tool's answer. A string answer is sent as it is;
 * any other value as its JSON.
 */
export type ToolHandlers<E, R> = {
  readonly [name: string]: (args: unknown, call: ToolCall) => Effect.Effect<unknown, E, R>
}

/** Options of the tool loop. */
export interface RunToolsOptions {
  /** Most completions to create (default 8, at most 100). */
  readonly maxRounds?: number | undefined
  /** Most handlers running at once (default 4, at most 64). */
  readonly concurrency?: number | undefined
  /** Most tool calls run for one answer (default 16, at most 128); an answer with more fails with `TooManyCalls`. */
  readonly maxCallsPerRound?: number | undefined
}

/** What the tool loop ends with. */
export interface ToolLoopResult {
  /** The last completion: the final answer, or the last one made when the round limit was reached. */
  readonly completion: ChatCompletion
  /**
   * The whole conversation: the request's messages, then each round's assistant message (as the service
   * returned it) and one `tool` message per tool call, ending with the last completion's message.
   */
  readonly messages: ReadonlyArray<Message>
  /** How many completions were created. */
  readonly rounds: number
  /** `true` when the last completion calls no tool; `false` when the loop stopped at `maxRounds`. */
  readonly finished: boolean
}

/**
 * How the loop takes its steps: `create` makes the completion of round `round` (1 for the first), and
 * `runCall` runs one tool call, given `answer`, the run of its handler to the tool message's content.
 * `Chat.runTools` sends and runs them as they are; `DurableChat.runTools` makes each an activity.
 */
export interface ToolLoopSteps<E, R, EC, RC, EW, RW> {
  readonly create: (request: ChatRequest, round: number) => Effect.Effect<ChatCompletion, EC, RC>
  readonly runCall: (call: ToolCall, answer: Effect.Effect<string, E, R>) => Effect.Effect<string, EW, RW>
}

/** The loop's run: its result, or a step's error or a refused call. */
type Loop<E, R> = Effect.Effect<ToolLoopResult, E | ToolCallError, R>

/**
 * Runs the loop, taking each step as `steps` say. Every call of a round is checked before any handler
 * runs (`checkRound`), so a round either runs whole or not at all.
 */
export const toolLoop = <E, R, EC, RC, EW, RW>(
  steps: ToolLoopSteps<E, R, EC, RC, EW, RW>,
  request: ChatRequest,
  handlers: ToolHandlers<E, R>,
  options: RunToolsOptions = {}
): Loop<EC | ValidationError | EW, StudioClient | RC | RW> =>
  Effect.flatMap(StudioClient, (client): Loop<EC | ValidationError | EW, RC | RW> => {
    const limits = toolLoopLimits(options)
    if (!("maxRounds" in limits)) {
      const issues = limits.map((issue) => new ValidationIssue(issue))
      return Effect.fail(new ValidationError({ operation: "chat.runTools", source: "client", issues }))
    }
    const { concurrency, maxCallsPerRound, maxRounds } = limits
    const runCall = (call: ToolCall, args: unknown, round: number) => {
      const handler = handlers[call.function.name]!
      const answer = handler(args, call).pipe(
        Effect.map(answerText),
        Effect.withSpan(
          "studio.chat.tool",
          // the call's id is the service's: checked against the secrets before it reaches the span
          spanOptions(client.redactAttributes({
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": call.function.name,
            "gen_ai.tool.call.id": call.id,
            "studio.tool_loop.round": round
          }, request))
        )
      )
      return steps.runCall(call, answer).pipe(
        Effect.map((content): Message => ({ role: "tool", tool_call_id: call.id, content }))
      )
    }
    const loop = (
      messages: ReadonlyArray<Message>,
      round: number,
      answered: ReadonlySet<string>
    ): Loop<EC | EW, RC | RW> =>
      Effect.flatMap(steps.create({ ...request, messages }, round), (completion) => {
        const message = completion.choices[0]?.message
        const calls = message?.tool_calls ?? []
        const conversation = message === undefined ? messages : [...messages, message]
        if (calls.length === 0 || round >= maxRounds) {
          return Effect.succeed({ completion, messages: conversation, rounds: round, finished: calls.length === 0 })
        }
        const checked = checkRound(calls, {
          round,
          maxCallsPerRound,
          answered,
          hasHandler: (name) => Object.hasOwn(handlers, name)
        })
        if (checked._tag === "Refused") {
          // a call the loop cannot run quotes what the service sent: scrubbed of the secrets as any error is
          return Effect.fail(client.redact(new ToolCallError(checked.refusal), request))
        }
        return Effect.forEach(calls, (call, index) => runCall(call, checked.args[index], round), { concurrency }).pipe(
          Effect.flatMap((answers) => loop([...conversation, ...answers], round + 1, checked.named))
        )
      })
    return loop(request.messages, 1, new Set()).pipe(
      Effect.withSpan(
        "studio.chat.runTools",
        spanOptions({ "gen_ai.operation.name": "chat", "gen_ai.request.model": request.model })
      )
    )
  })
