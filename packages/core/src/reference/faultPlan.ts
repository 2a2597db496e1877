/**
 * The reference service's fault plans: which faults a request gets (a list read in order, a function of the
 * request, or a seeded random plan) and in which order they act. `Duration` is the line's duration input.
 */
import { generator } from "./random.js"

/** A fault the service injects into one request. */
export type Fault<Duration> =
  /** Answer with this status and `{"detail": ...}` instead of handling the request. */
  | {
    readonly _tag: "Status"
    readonly status: number
    readonly detail?: string | undefined
    readonly headers?: Readonly<Record<string, string>> | undefined
  }
  /** Wait this long (on Effect's clock) before handling the request. */
  | { readonly _tag: "Delay"; readonly duration: Duration }
  /** Close the connection without answering. */
  | { readonly _tag: "Drop" }
  /** Answer, then close the connection after `afterEvents` stream events (or half of a JSON body). */
  | { readonly _tag: "DropMidStream"; readonly afterEvents: number }
  /** Answer, then end the body cleanly after `afterEvents` stream events (or half of a JSON body). */
  | { readonly _tag: "CutStream"; readonly afterEvents: number }
  /**
   * Handle the request (its work is done: a run or an assistant is created), then wait `delay` before
   * answering and answer `status` instead, as a gateway that times out or fails after the service acted.
   */
  | {
    readonly _tag: "AfterHandling"
    readonly delay?: Duration | undefined
    readonly status?: number | undefined
    readonly detail?: string | undefined
  }

/** The request a fault plan is asked about. */
export interface FaultRequest {
  readonly method: string
  /** The path without the query, such as `/studio/v1/chat/completions`. */
  readonly path: string
  /** How many requests the service saw before this one. */
  readonly index: number
}

/**
 * Which faults to inject: a list read in order (request `i` gets entry `i`; `undefined` or `null` for
 * none; requests past the end get none), or a function of the request. An entry may combine faults, such
 * as a delay and then a status.
 */
export type FaultPlan<Duration> =
  | ReadonlyArray<Fault<Duration> | ReadonlyArray<Fault<Duration>> | null | undefined>
  | ((request: FaultRequest) => Fault<Duration> | ReadonlyArray<Fault<Duration>> | null | undefined)

/** A plan that injects one of `faults` with the given probability, from a seeded generator. */
export const randomPlan = <Duration>(options: {
  readonly probability: number
  readonly faults: ReadonlyArray<Fault<Duration>>
  readonly seed?: number | undefined
}): FaultPlan<Duration> => {
  const next = generator(options.seed ?? 0)
  return () => {
    const roll = next()
    const pick = next()
    if (roll >= options.probability || options.faults.length === 0) return undefined
    return options.faults[Math.floor(pick * options.faults.length)]
  }
}

/** The faults a plan gives a request. */
export const faultsFor = <Duration>(
  plan: FaultPlan<Duration> | undefined,
  request: FaultRequest
): ReadonlyArray<Fault<Duration>> => {
  if (plan === undefined) return []
  const entry = typeof plan === "function" ? plan(request) : plan[request.index]
  if (entry === undefined || entry === null) return []
  return Array.isArray(entry) ? entry as ReadonlyArray<Fault<Duration>> : [entry as Fault<Duration>]
}

/** A fault that acts on the answer's body once it is being sent. */
export type BodyFault<Duration> = Extract<Fault<Duration>, { readonly _tag: "DropMidStream" | "CutStream" }>

/**
 * A request's faults in the order they act: before handling, the delays until a drop or a status ends the
 * request (`first`, later faults unread); after handling, the last `AfterHandling`; on the body, the last cut.
 */
export interface FaultSchedule<Duration> {
  readonly delays: ReadonlyArray<Duration>
  readonly first: Extract<Fault<Duration>, { readonly _tag: "Drop" | "Status" }> | undefined
  readonly after: Extract<Fault<Duration>, { readonly _tag: "AfterHandling" }> | undefined
  readonly cut: BodyFault<Duration> | undefined
}

/** When each of a request's faults acts (see `FaultSchedule`). */
export const scheduleFaults = <Duration>(faults: ReadonlyArray<Fault<Duration>>): FaultSchedule<Duration> => {
  const delays: Array<Duration> = []
  let after: FaultSchedule<Duration>["after"]
  let cut: FaultSchedule<Duration>["cut"]
  for (const fault of faults) {
    switch (fault._tag) {
      case "Delay":
        delays.push(fault.duration)
        break
      case "Drop":
      case "Status":
        return { delays, first: fault, after, cut }
      case "AfterHandling":
        after = fault
        break
      default:
        cut = fault
    }
  }
  return { delays, first: undefined, after, cut }
}
