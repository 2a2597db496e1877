/**
 * The rules of the tool loop (`Chat.runTools`) that need no effect: its limits, the check of one answer's
 * tool calls before any handler runs, and how a handler's answer is sent back.
 *
 * @since 0.1.0
 */

/**
 * The limits of one tool loop, each resolved from its option.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolLoopLimits {
  readonly maxRounds: number
  readonly concurrency: number
  readonly maxCallsPerRound: number
}

/**
 * Each limit's default and the largest value it takes.
 *
 * @since 0.1.0
 * @category limits
 */
export const toolLoopBounds = {
  maxRounds: { default: 8, limit: 100 },
  concurrency: { default: 4, limit: 64 },
  maxCallsPerRound: { default: 16, limit: 128 }
} as const

/**
 * An option out of its bounds, named by its field.
 *
 * @since 0.1.0
 * @category models
 */
export interface LimitIssue {
  readonly path: string
  readonly message: string
}

/**
 * The limits of `options`, each its default when not given; the issue of every option that is not an integer
 * from 1 to its largest value.
 *
 * @since 0.1.0
 * @category limits
 */
export const toolLoopLimits = (
  options: { readonly [K in keyof ToolLoopLimits]?: number | undefined }
): ToolLoopLimits | ReadonlyArray<LimitIssue> => {
  const issues: Array<LimitIssue> = []
  const resolve = (field: keyof ToolLoopLimits): number => {
    const bound = toolLoopBounds[field]
    const chosen = options[field] ?? bound.default
    if (!(Number.isInteger(chosen) && chosen >= 1 && chosen <= bound.limit)) {
      issues.push({ path: field, message: `${field} must be an integer from 1 to ${bound.limit}` })
    }
    return chosen
  }
  const limits = {
    maxRounds: resolve("maxRounds"),
    concurrency: resolve("concurrency"),
    maxCallsPerRound: resolve("maxCallsPerRound")
  }
  return issues.length === 0 ? limits : issues
}

/**
 * The part of a tool call the check reads.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolCallShape {
  readonly id: string
  readonly function: { readonly name: string; readonly arguments: string }
}

/**
 * Why a call of an answer cannot be run: the fields of the `ToolCallError` it becomes.
 *
 * @since 0.1.0
 * @category models
 */
export interface CallRefusal {
  readonly reason: "InvalidArguments" | "UnknownTool" | "TooManyCalls" | "RepeatedCallId"
  readonly toolName: string
  readonly toolCallId: string
  /** What the service sent as the call's arguments, cut to 200 characters. */
  readonly arguments: string
  readonly round: number
  /** With `TooManyCalls`, how many calls the answer made. */
  readonly calls?: number
}

/**
 * The calls of one answer, checked: each call's parsed arguments (in the calls' order) and every id named
 * so far; or the first call that cannot run.
 *
 * @since 0.1.0
 * @category models
 */
export type CheckedRound =
  | { readonly _tag: "Run"; readonly args: ReadonlyArray<unknown>; readonly named: ReadonlySet<string> }
  | { readonly _tag: "Refused"; readonly refusal: CallRefusal }

/** Longest rendering of a call's arguments that an error carries. */
const maxArgumentsShown = 200

const shown = (text: string): string => text.length <= maxArgumentsShown ? text : `${text.slice(0, maxArgumentsShown)}…`

/**
 * Checks every call of an answer before any handler runs, so that a round runs whole or not at all: at most
 * `maxCallsPerRound` calls, no id named before (in this answer or an earlier one), a handler for each, and
 * arguments that parse as JSON (empty arguments are `{}`).
 *
 * @since 0.1.0
 * @category checks
 */
export const checkRound = (
  calls: ReadonlyArray<ToolCallShape>,
  context: {
    readonly round: number
    readonly maxCallsPerRound: number
    readonly answered: ReadonlySet<string>
    readonly hasHandler: (name: string) => boolean
  }
): CheckedRound => {
  const { round } = context
  const named = new Set(context.answered)
  const args: Array<unknown> = []
  const refused = (call: ToolCallShape, reason: CallRefusal["reason"], text: string, extra = {}): CheckedRound => ({
    _tag: "Refused",
    refusal: { reason, toolName: call.function.name, toolCallId: call.id, arguments: text, round, ...extra }
  })
  for (const [index, call] of calls.entries()) {
    if (index >= context.maxCallsPerRound) return refused(call, "TooManyCalls", "", { calls: calls.length })
    if (named.has(call.id)) return refused(call, "RepeatedCallId", "")
    named.add(call.id)
    const text = call.function.arguments
    if (!context.hasHandler(call.function.name)) {
      return refused(call, "UnknownTool", text.slice(0, maxArgumentsShown))
    }
    if (text.trim() === "") {
      args.push({})
      continue
    }
    try {
      args.push(JSON.parse(text))
    } catch {
      return refused(call, "InvalidArguments", shown(text))
    }
  }
  return { _tag: "Run", args, named }
}

/**
 * A handler's answer as the `tool` message's content: a string as it is; anything else as its JSON, or its
 * text when it has none (a bigint, a cycle).
 *
 * @since 0.1.0
 * @category answers
 */
export const answerText = (answer: unknown): string => {
  if (typeof answer === "string") return answer
  try {
    return JSON.stringify(answer) ?? "null"
  } catch {
    return String(answer)
  }
}
