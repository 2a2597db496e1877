/**
 * What `studio-effect run` says and sends: its commands' and arguments' descriptions, why it has no run to
 * start, and the request that starts one.
 *
 * @since 0.1.0
 */
import type { Example } from "./help.js"

/**
 * The descriptions of the `run` command, its subcommands, and their arguments.
 *
 * @since 0.1.0
 * @category constants
 */
export const runDescriptions = {
  command: "Start an orchestration run, follow it, and print its result and requirement scores; Ctrl-C stops " +
    "following it and says how to pick it up (`run watch`)",
  get: "Print a run as JSON, as it is now (the service at STUDIO_BASE_URL)",
  watch: "Follow a run to its end and print its result and requirement scores, as `run` does (the service at " +
    "STUDIO_BASE_URL)",
  instruction: "What the run should do",
  runId: "The run's id, as `run` prints it",
  budget: "How much effort the run may spend (the service's default: low)",
  include: "Extra fields of the result; repeat for several (requirements_result is asked for whenever there are " +
    "requirements)",
  model: "The model the run uses (the service's default when not given); `studio-effect models list` lists them",
  system: "The run's system prompt",
  language: "The language of the answer (detected from the instruction when not given)",
  webSearch: "Let the run search the web (its web_search tool)",
  webSearchUrl: "Search the web only under this URL prefix (implies --web-search); repeat for several",
  fileSearch: "Let the run search the library of files (its file_search tool; see `studio-effect files`)",
  fileLabel: "Search only the files with this label (implies --file-search); repeat for several"
} as const

/**
 * The examples of `run`'s help, `run get`'s and `run watch`'s.
 *
 * @since 0.2.0
 * @category constants
 */
export const runExamples = {
  run: [
    {
      command: "studio-effect run -r \"list=Answer as a numbered list\" -b medium \"Write two tips\"",
      description: "A run with a requirement"
    },
    {
      command: "studio-effect run --web-search --language french \"Summarise today's tea news\"",
      description: "Search the web, answer in French"
    },
    { command: "studio-effect run --reference \"Write two tips\"", description: "Against the embedded service" }
  ],
  get: [{ command: "studio-effect run get run_123", description: "A run as JSON" }],
  watch: [{ command: "studio-effect run watch run_123", description: "Follow a run again after Ctrl-C" }]
} as const satisfies Record<string, ReadonlyArray<Example>>

/**
 * What `run` says when it is given no instruction.
 *
 * @since 0.1.0
 * @category formatting
 */
export const noInstructionMessage = "No instruction: give one (studio-effect run \"Write two tips\"), or pick up " +
  "a run with `studio-effect run watch <run-id>`"

/**
 * What `run` sends besides its instruction and requirements, from its options: each only when given.
 *
 * @since 0.2.0
 * @category models
 */
export interface RunOptions<B, I extends string, L extends string> {
  readonly budget?: B | undefined
  readonly include: ReadonlyArray<I>
  readonly model?: string | undefined
  readonly system?: string | undefined
  readonly language?: L | undefined
  readonly webSearch: boolean
  readonly webSearchUrls: ReadonlyArray<string>
  readonly fileSearch: boolean
  readonly fileLabels: ReadonlyArray<string>
}

/**
 * The tools of a run's options: `web_search` (with its URL prefixes) and `file_search` (with its labels), each
 * when asked for or given a filter.
 *
 * @since 0.2.0
 * @category constructors
 */
export const runTools = (options: {
  readonly webSearch: boolean
  readonly webSearchUrls: ReadonlyArray<string>
  readonly fileSearch: boolean
  readonly fileLabels: ReadonlyArray<string>
}) => [
  ...(options.webSearch || options.webSearchUrls.length > 0
    ? [{
      type: "web_search" as const,
      ...(options.webSearchUrls.length > 0 ? { urls: [...options.webSearchUrls] } : {})
    }]
    : []),
  ...(options.fileSearch || options.fileLabels.length > 0
    ? [{
      type: "file_search" as const,
      ...(options.fileLabels.length > 0 ? { labels: [...options.fileLabels] } : {})
    }]
    : [])
]

/**
 * The request that starts a run of `instruction`: with the requirements given, and each option only when
 * given (the requirement scores are asked for whenever there are requirements).
 *
 * @since 0.1.0
 * @category constructors
 */
export const runRequest = <R, B, I extends string, L extends string>(
  instruction: string,
  requirements: ReadonlyArray<R>,
  options: RunOptions<B, I, L>
) => {
  const includes = new Set<I | "requirements_result">(options.include)
  if (requirements.length > 0) includes.add("requirements_result")
  const tools = runTools(options)
  return {
    input: instruction,
    ...(requirements.length > 0 ? { requirements } : {}),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(options.model === undefined ? {} : { models: [options.model] }),
    ...(options.system === undefined ? {} : { system_prompt: options.system }),
    ...(options.language === undefined ? {} : { response_language: options.language }),
    ...(tools.length > 0 ? { tools } : {}),
    ...(includes.size > 0 ? { include: [...includes] } : {})
  }
}
