/**
 * Recording what a program emits: every log line at every level, and every span with its attributes and
 * events, so tests can assert what does (and does not) leave the SDK.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as References from "effect/References"
import * as Tracer from "effect/Tracer"

export interface RecordedSpan {
  readonly name: string
  readonly attributes: Map<string, unknown>
  readonly events: Array<{ readonly name: string; readonly attributes: Record<string, unknown> | undefined }>
  exit?: unknown
}

export interface Recording {
  readonly logs: Array<string>
  readonly spans: Array<RecordedSpan>
  /** Everything recorded, as one string to search. */
  readonly text: () => string
}

let counter = 0

const recordingTracer = (spans: Array<RecordedSpan>): Tracer.Tracer =>
  Tracer.make({
    span({ annotations, kind, links, name, parent, sampled, startTime }) {
      const recorded: RecordedSpan = { name, attributes: new Map(), events: [] }
      spans.push(recorded)
      let status: Tracer.SpanStatus = { _tag: "Started", startTime }
      const span: Tracer.Span = {
        _tag: "Span",
        name,
        spanId: `span${++counter}`,
        traceId: "trace",
        parent,
        annotations,
        get status() {
          return status
        },
        attributes: recorded.attributes,
        links,
        sampled,
        kind,
        end(endTime, exit) {
          status = { _tag: "Ended", startTime, endTime, exit }
          // What an exporter records of the end of a span: its status and, on failure, the rendered cause.
          recorded.exit = Exit.isSuccess(exit) ? "ok" : Cause.pretty(exit.cause)
        },
        attribute(key, value) {
          recorded.attributes.set(key, value)
        },
        event(eventName, _time, attributes) {
          recorded.events.push({ name: eventName, attributes })
        },
        addLinks() {}
      }
      return span
    }
  })

const show = (value: unknown): string => {
  try {
    return typeof value === "string" ? value : JSON.stringify(value, (_, v) => typeof v === "bigint" ? String(v) : v)
  } catch {
    return String(value)
  }
}

/** A recording and the layer that fills it: all log levels, and a tracer keeping every span. */
export const makeRecording = (): { readonly recording: Recording; readonly layer: Layer.Layer<never> } => {
  const logs: Array<string> = []
  const spans: Array<RecordedSpan> = []
  const logger = Logger.make((options) => {
    logs.push(Logger.formatLogFmt.log(options))
    logs.push(show(Logger.formatStructured.log(options)))
  })
  const layer = Layer.mergeAll(
    Logger.layer([logger]),
    Layer.succeed(References.MinimumLogLevel, "All"),
    Layer.succeed(Tracer.Tracer, recordingTracer(spans))
  )
  const text = () =>
    [
      ...logs,
      ...spans.flatMap((span) => [
        span.name,
        ...[...span.attributes.entries()].map(([k, v]) => `${k}=${show(v)}`),
        ...span.events.map((event) => `${event.name} ${show(event.attributes)}`),
        show(span.exit)
      ])
    ].join("\n")
  return { recording: { logs, spans, text }, layer }
}

/** The span of that name, if recorded. */
export const findSpan = (recording: Recording, name: string) =>
  Option.fromNullishOr(recording.spans.find((span) => span.name === name))

/** Logs a line at every level, to prove the recorder sees them. */
export const logAtEveryLevel = (message: string) =>
  Effect.all([
    Effect.logTrace(message),
    Effect.logDebug(message),
    Effect.logInfo(message),
    Effect.logWarning(message),
    Effect.logError(message),
    Effect.logFatal(message)
  ])
