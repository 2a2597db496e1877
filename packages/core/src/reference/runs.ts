/**
 * Orchestration runs of the reference service. A run is decided when it is created (its result, scores
 * and sources) and is shown `in_progress` until enough time has passed for its steps: one step for budget
 * `low`, three for `medium`, three strategies of three steps for `high`. Its status is computed from the
 * time given on every retrieve, so the caller's clock drives it and nothing sleeps.
 */
import * as CodePoints from "../text/codePoints.js"
import { type AssistantResponseLanguage, unsetResponseLanguage } from "../wire/assistant.js"
import type { FileFilter } from "../wire/library.js"
import type {
  Budget,
  FileSearchFilters,
  OutputType,
  Requirement,
  RunMessage,
  RunTool,
  ToolResources
} from "../wire/runs.js"
import type { ModelContext, ModelRequest, Reply } from "./builtInModel.js"
import type { Ids } from "./ids.js"
import * as JsonSchemaValue from "./jsonSchemaValue.js"
import { detect, type Language } from "./language.js"
import type { Hit } from "./library/library.js"
import { generator, hash } from "./random.js"
import { type Check, checksOf, revise, scoreRequirement } from "./requirements.js"

/** A run's configuration after validation (and, for an assistant, after merging its stored fields). */
export interface RunConfiguration {
  readonly input?: string | ReadonlyArray<RunMessage> | undefined
  readonly system_prompt?: string | undefined
  readonly requirements?: ReadonlyArray<Requirement> | undefined
  readonly tools?: ReadonlyArray<RunTool> | undefined
  readonly tool_resources?: ToolResources | undefined
  readonly models?: ReadonlyArray<string> | undefined
  readonly budget?: Budget | undefined
  readonly response_language?: AssistantResponseLanguage | null | undefined
  readonly include?: ReadonlyArray<string> | undefined
  /** A JSON Schema object makes the result a value of that schema; `"json"` (or none) keeps it text. */
  readonly output_type?: OutputType | undefined
}

/**
 * Decides whether a run fails: a message makes it end `failed` with that `error.message`.
 *
 * @since 0.1.0
 * @category models
 */
export type RunFailure = (run: RunConfiguration) => string | undefined

/** What a run comes to: its result (text, or a value of its `output_type`), its scores, and its sources. */
export interface Outcome {
  readonly result: unknown
  readonly requirementsResult: Record<string, unknown>
  readonly dataSources: Record<string, unknown>
}

interface StoredRun {
  readonly id: string
  /** Characters of the run's JSON once completed: what it counts for in the store's size budget. */
  readonly size: number
  readonly createdAt: number
  readonly duration: number
  readonly include: ReadonlySet<string>
  readonly outcome: Outcome
  readonly failure: string | undefined
}

/** Steps of each budget: `high` runs three strategies of three steps each. */
export const stepsOf = (budget: Budget): number => budget === "low" ? 1 : budget === "medium" ? 3 : 9

// ---------------------------------------------------------------------------------------------------------
// data sources
// ---------------------------------------------------------------------------------------------------------

/**
 * Public suffixes of two labels under which names are registered (`example.co.uk`): a bounded table of the
 * common ones, since the full public suffix list is large and changes. Under any other suffix, a
 * registered name is the last two labels of a host.
 */
const twoLabelSuffixes: ReadonlySet<string> = new Set([
  ...["co", "org", "me", "ltd", "plc", "net", "sch", "ac", "gov", "nhs", "police"].map((l) => `${l}.uk`),
  ...["com", "net", "org", "edu", "gov", "asn", "id"].map((l) => `${l}.au`),
  ...["co", "or", "ne", "ac", "go", "ed"].map((l) => `${l}.jp`),
  ...["co", "org", "net", "ac", "govt", "school"].map((l) => `${l}.nz`),
  ...["com", "net", "org", "gov", "edu"].map((l) => `${l}.br`),
  ...["co", "org", "ac", "gov", "net"].map((l) => `${l}.za`),
  ...["co", "net", "org", "firm", "gen", "ind", "ac", "edu", "gov"].map((l) => `${l}.in`),
  ...["co", "ac", "or", "go", "ne", "re"].map((l) => `${l}.kr`),
  ...["co", "org", "ac", "gov", "net", "muni"].map((l) => `${l}.il`),
  ...["com", "net", "org", "edu", "gov"].map((l) => `${l}.cn`),
  ...["com", "net", "org", "edu", "gov"].map((l) => `${l}.mx`),
  ...["com", "net", "org", "edu", "gov"].map((l) => `${l}.tr`),
  ...["com", "net", "org", "edu", "gov"].map((l) => `${l}.sg`),
  ...["com", "net", "org", "edu", "gov", "idv"].map((l) => `${l}.tw`),
  ...["com", "net", "org", "edu", "gov"].map((l) => `${l}.hk`),
  ...["com", "net", "org", "gob"].map((l) => `${l}.ar`),
  ...["com", "org", "net", "gob", "edu"].map((l) => `${l}.es`),
  "co.id",
  "or.id",
  "ac.id",
  "com.my",
  "com.ph",
  "com.pk",
  "com.sa",
  "com.eg",
  "com.ua",
  "com.pl",
  "com.co",
  "com.pe",
  "com.vn",
  "co.th",
  "ac.th",
  "gv.at",
  "ac.at",
  "co.at"
])

/** Whether `host` is a registered name itself (`example.com`, `example.co.uk`), not a subdomain of one. */
export const isRegisteredName = (host: string): boolean => {
  const labels = host.toLowerCase().split(".")
  if (labels.length <= 2) return true
  return labels.length === 3 && twoLabelSuffixes.has(labels.slice(1).join("."))
}

/** The host a scope starts with: the `www.` form of a registered name, any other host as it is. */
const scopeHost = (host: string): string =>
  host.toLowerCase().startsWith("www.") || !isRegisteredName(host)
    ? host
    : `www.${host}`

/**
 * The URL prefix a `web_search.urls` entry restricts results to. A registered name, in any of the shapes
 * `https://<domain>`, `<domain>` and `<domain>/<path>`, gives its `www.` form (with the path); a subdomain
 * (`docs.example.com`, `https://docs.example.com`, `shop.example.co.uk/x`) gives that host itself.
 */
export const webSearchScope = (entry: string): string => {
  const rest = entry.startsWith("https://") ? entry.slice("https://".length) : entry
  const slash = rest.indexOf("/")
  const host = slash === -1 ? rest : rest.slice(0, slash)
  const path = slash === -1 ? "/" : rest.slice(slash)
  return `https://${scopeHost(host)}${path}`
}

const fileFilterOf = (filters: FileSearchFilters): FileFilter => ({
  fileIds: filters.file_ids,
  labels: filters.labels,
  labelsFilterMode: filters.labels_filter_mode,
  path: filters.path
})

/**
 * The files a run searches: one filter for each `file_search` tool and one for the legacy
 * `tool_resources.file_search` (a file any of them allows is searched), or `undefined` when the run
 * searches no files.
 */
export const fileFiltersOf = (run: RunConfiguration): ReadonlyArray<FileFilter> | undefined => {
  const filters: Array<FileFilter> = []
  for (const tool of run.tools ?? []) if (tool.type === "file_search") filters.push(fileFilterOf(tool))
  if (run.tool_resources?.file_search !== undefined) filters.push(fileFilterOf(run.tool_resources.file_search))
  return filters.length === 0 ? undefined : filters
}

/** The most segments of the library a run's file search gives its draft and its `data_sources`. */
export const runSearchSegments = 5

/** What a run's file search found, in a run's `data_sources.file_search` shape. */
const fileSource = (hit: Hit) => ({
  text: hit.text,
  file_id: hit.fileId,
  file_name: hit.fileName,
  score: hit.score,
  order: hit.order
})

/** The most code points of the question a web source's `text` quotes. */
const webQuoteLength = 100

/**
 * What a run's web search found under one scope, in a run's `data_sources.web_search` shape: its `url`, a
 * `text` naming what was searched for there, and a `score` in (0, 1] that falls with its place (`1 / (1 +
 * place)`), as the real service ranks its sources best first.
 */
export const webSource = (url: string, question: string, place: number) => {
  const quoted = CodePoints.clip(question.replace(/\s+/gu, " ").trim(), webQuoteLength)
  return {
    url,
    text: quoted === "" ? `Pages under ${url}` : `Pages under ${url} about "${quoted}"`,
    score: round(1 / (1 + place))
  }
}

/**
 * Where a run's answer came from, given its search tools and legacy `tool_resources`: the web scopes it
 * searches (each with its `text` and `score`, `webSource`), and the segments its file search found
 * (`found`), when it searches files.
 */
export const dataSourcesOf = (run: RunConfiguration, found: ReadonlyArray<Hit> = []): Record<string, unknown> => {
  const web: Array<ReturnType<typeof webSource>> = []
  const question = inputText(run)
  // a set, not a search of `web`: a run may list tens of thousands of URLs
  const seen = new Set<string>()
  let searchesWeb = false
  const addWeb = (urls: ReadonlyArray<string> | undefined) => {
    searchesWeb = true
    for (const url of urls ?? []) {
      const scope = webSearchScope(url)
      if (!seen.has(scope)) {
        seen.add(scope)
        web.push(webSource(scope, question, web.length))
      }
    }
  }
  for (const tool of run.tools ?? []) {
    if (tool.type === "web_search") addWeb(tool.urls)
  }
  if (run.tool_resources?.web_search !== undefined) addWeb(run.tool_resources.web_search.urls)
  return {
    ...(searchesWeb ? { web_search: web } : {}),
    ...(fileFiltersOf(run) === undefined ? {} : { file_search: found.map(fileSource) })
  }
}

// ---------------------------------------------------------------------------------------------------------
// deciding a run
// ---------------------------------------------------------------------------------------------------------

const inputMessages = (run: RunConfiguration): ModelRequest["messages"] => {
  const turns = run.input === undefined
    ? []
    : typeof run.input === "string"
    ? [{ role: "user" as const, content: run.input }]
    : run.input
  const system = run.system_prompt === undefined ? [] : [{ role: "system" as const, content: run.system_prompt }]
  const messages = [...system, ...turns]
  return messages.some((m) => m.role === "user") ? messages : [...messages, { role: "user" as const, content: "" }]
}

/** What a run asks, as text: its input's user turns. It is also the query of its file search. */
export const inputText = (run: RunConfiguration): string =>
  run.input === undefined
    ? ""
    : typeof run.input === "string"
    ? run.input
    : run.input.filter((m) => m.role === "user").map((m) => m.content).join("\n")

const round = (value: number): number => Math.round(value * 1000) / 1000

const scoreAll = (requirements: ReadonlyArray<Requirement>, result: string) => {
  const scores = requirements.map((requirement) => ({ requirement, ...scoreRequirement(requirement, result) }))
  const mandatoryMissed = scores.some((s) => s.requirement.is_mandatory === true && s.score < 1)
  const mean = scores.length === 0 ? 1 : scores.reduce((sum, s) => sum + s.score, 0) / scores.length
  return { scores, overall: mandatoryMissed ? 0 : round(mean) }
}

const firstSentence = (text: string): string => text.split(/(?<=[.!?])\s+/u)[0] ?? text

/** The candidate results of each strategy: the draft, a concise form, and a structured form. */
const strategies = (draft: string): ReadonlyArray<string> => [
  draft,
  firstSentence(draft),
  draft.split(/(?<=[.!?])\s+/u).map((sentence, i) => `${i + 1}. ${sentence}`).join("\n")
]

/** What the model is asked for a run's draft, in the language the run answers in. */
export interface Draft {
  readonly request: ModelRequest
  readonly context: ModelContext & { readonly language: Language }
}

/**
 * The draft a run asks of the model: its conversation (system prompt and turns) for its model, with the
 * segments its file search found as documents (each named by its file), in the language it asks for, else
 * the one a requirement names, else the one of its input, else English.
 */
export const draftOf = (run: RunConfiguration, seed: number, found: ReadonlyArray<Hit> = []): Draft => {
  const requested = run.response_language === unsetResponseLanguage ? null : run.response_language ?? null
  const languageRequirement = (run.requirements ?? []).flatMap((r) => checksOf(r.description))
    .find((check): check is Extract<Check, { _tag: "Language" }> => check._tag === "Language")
  const language: Language = requested ?? languageRequirement?.language ?? detect(inputText(run)) ?? "english"
  return {
    request: {
      model: run.models?.[0] ?? "fpmodel-mini",
      messages: inputMessages(run),
      ...(found.length === 0
        ? {}
        : { documents: found.map((hit) => ({ content: hit.text, metadata: { name: hit.fileName } })) })
    },
    context: { index: 0, seed, purpose: "run", language }
  }
}

/** Decides a run from the model's reply to its draft: its result, scores and sources. */
export const decide = (
  run: RunConfiguration,
  draft: Draft,
  reply: Reply,
  options: { readonly metadata: boolean; readonly found?: ReadonlyArray<Hit> | undefined }
): Outcome => {
  const budget = run.budget ?? "low"
  const requirements = run.requirements ?? []
  const language = draft.context.language
  const text = typeof reply === "string" ? reply : reply.content ?? ""
  const checksFor = (mandatoryOnly: boolean): ReadonlyArray<Check> =>
    requirements.filter((r) => !mandatoryOnly || r.is_mandatory === true).flatMap((r) => checksOf(r.description))
  const candidates = budget === "low"
    ? [revise(text, checksFor(true), language)]
    : budget === "medium"
    ? [revise(text, checksFor(false), language)]
    : strategies(text).map((candidate) => revise(candidate, checksFor(false), language))
  let best = candidates[0]!
  let bestScore = scoreAll(requirements, best)
  for (const candidate of candidates.slice(1)) {
    const scored = scoreAll(requirements, candidate)
    const mean = (s: typeof scored) => s.scores.reduce((sum, x) => sum + x.score, 0)
    if (
      scored.overall > bestScore.overall || (scored.overall === bestScore.overall && mean(scored) > mean(bestScore))
    ) {
      best = candidate
      bestScore = scored
    }
  }
  const allMet = bestScore.scores.every((s) => s.score >= 1)
  return {
    result: typeof run.output_type === "object"
      ? JsonSchemaValue.generate(run.output_type, {
        text: inputText(run),
        random: generator(hash(inputText(run), draft.context.seed))
      }) ?? null
      : best,
    requirementsResult: {
      score: bestScore.overall,
      finish_reason: allMet ? "all_requirements_met" : "budget_exhausted",
      requirements: bestScore.scores.map((s) => ({
        name: s.requirement.name,
        description: s.requirement.description,
        is_mandatory: s.requirement.is_mandatory ?? false,
        score: round(s.score),
        reason: s.reason
      })),
      ...(options.metadata
        ? {
          metadata: {
            budget,
            steps: stepsOf(budget),
            strategies: candidates.length,
            model: draft.request.model,
            language
          }
        }
        : {})
    },
    dataSources: dataSourcesOf(run, options.found)
  }
}

// ---------------------------------------------------------------------------------------------------------
// the store
// ---------------------------------------------------------------------------------------------------------

/** The limits of a run store when none are given: 1,000 runs and 64 Mi characters of their JSON. */
export const defaultRunStoreLimits = { maxRuns: 1000, maxRunsSize: 64 * 1024 * 1024 } as const

/**
 * The runs of one service: a map in creation order that keeps at most `maxRuns` runs and `maxRunsSize`
 * characters of their JSON, evicting the oldest first (an evicted run is a 404). A write costs the same
 * whatever the store holds. Times are epoch milliseconds, given by the caller.
 */
export const makeRunStore = (options: {
  readonly ids: Ids
  /** How long one step of a run takes, in milliseconds. */
  readonly stepDuration: number
  readonly failRun?: RunFailure | undefined
  readonly maxRuns: number
  readonly maxRunsSize: number
}) => {
  const runs = new Map<string, StoredRun>()
  let storedSize = 0

  const store = (run: StoredRun): void => {
    while (runs.size > 0 && (runs.size >= options.maxRuns || storedSize + run.size > options.maxRunsSize)) {
      const oldest = runs.values().next().value!
      runs.delete(oldest.id)
      storedSize -= oldest.size
    }
    runs.set(run.id, run)
    storedSize += run.size
  }

  /**
   * Stores a run decided from the model's reply to its draft at `now` (with what its file search `found`),
   * and shows it as at `now`.
   */
  const create = (
    run: RunConfiguration,
    draft: Draft,
    reply: Reply,
    now: number,
    found: ReadonlyArray<Hit> = []
  ): Record<string, unknown> => {
    const include = new Set(run.include ?? [])
    const outcome = decide(run, draft, reply, { metadata: include.has("requirements_result.metadata"), found })
    const id = options.ids.uuid()
    const failure = options.failRun?.(run)
    const stored: StoredRun = {
      id,
      size: JSON.stringify(outcome).length + (failure?.length ?? 0) + id.length + 64,
      createdAt: now,
      duration: stepsOf(run.budget ?? "low") * options.stepDuration,
      include,
      outcome,
      failure
    }
    store(stored)
    return view(stored, now)
  }

  /** A run as shown at `now`, or `undefined` when the store does not hold it. */
  const retrieve = (id: string, now: number): Record<string, unknown> | undefined => {
    const stored = runs.get(id)
    return stored === undefined ? undefined : view(stored, now)
  }

  return { create, retrieve }
}

/** A run as the service shows it at `now`; `created_at` is the time of its creation (ISO 8601, UTC). */
const view = (run: StoredRun, now: number): Record<string, unknown> => {
  const created_at = new Date(run.createdAt).toISOString()
  if (now - run.createdAt < run.duration) return { id: run.id, status: "in_progress", result: null, created_at }
  if (run.failure !== undefined) {
    return { id: run.id, status: "failed", result: null, error: { message: run.failure }, created_at }
  }
  return {
    id: run.id,
    status: "completed",
    created_at,
    result: run.outcome.result,
    ...(run.include.has("data_sources") ? { data_sources: run.outcome.dataSources } : {}),
    ...(run.include.has("requirements_result") || run.include.has("requirements_result.metadata")
      ? { requirements_result: run.outcome.requirementsResult }
      : {})
  }
}
