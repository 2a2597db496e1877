/**
 * Helpers of the reference service's tests: raw calls through an `HttpClient` (in memory or over a
 * socket), and validation of answers against the real service's OpenAPI with ajv.
 */
import { bodyJson, Effect, HttpClient, HttpClientRequest } from "@studio-effect/line"
import AjvModule, { type ValidateFunction } from "ajv"
import { readFileSync } from "node:fs"

/** An answer as a test sees it. */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  readonly json: any
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Sends a request with a bearer key (unless `key` is null) and reads the whole answer. */
export const call = (
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  options: {
    readonly body?: unknown
    readonly raw?: string | Uint8Array
    readonly key?: string | null
    readonly baseUrl?: string
  } = {}
) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(`${options.baseUrl ?? "http://reference.test"}${path}`)
    if (options.key !== null) request = HttpClientRequest.bearerToken(request, options.key ?? "test-key")
    if (options.raw !== undefined) {
      request = typeof options.raw === "string"
        ? HttpClientRequest.bodyText(request, options.raw, "application/json")
        : HttpClientRequest.bodyUint8Array(request, options.raw, "application/json")
    } else if (options.body !== undefined) {
      request = bodyJson(request, options.body)
    }
    const response = yield* client.execute(request)
    const text = yield* response.text
    const answer: Answer = { status: response.status, headers: response.headers, text, json: parse(text) }
    return answer
  })

/** The `data:` payloads of an SSE body, in order. */
export const events = (body: string): Array<string> =>
  body.split("\n\n").filter((block) => block.trim() !== "").map((block) => {
    if (!block.startsWith("data: ")) throw new Error(`not an SSE data event: ${JSON.stringify(block)}`)
    return block.slice("data: ".length)
  })

// ---------------------------------------------------------------------------------------------------------
// the OpenAPI
// ---------------------------------------------------------------------------------------------------------

const openapi = JSON.parse(readFileSync(new URL("./studio-openapi.json", import.meta.url), "utf8"))

/**
 * FastAPI writes `Optional[X] = None` fields as optional properties of type X in this cut-down document,
 * while the service sends them as `null` (`"logprobs": null`, `"tool_calls": null`). A property that is not
 * required may therefore be null; everything else is checked as written.
 */
const allowNullForOptional = (schema: any): any => {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema
  const out: any = { ...schema }
  delete out.discriminator
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    if (Array.isArray(out[key])) out[key] = out[key].map(allowNullForOptional)
  }
  for (const key of ["items", "additionalProperties", "not"]) {
    if (typeof out[key] === "object" && out[key] !== null) out[key] = allowNullForOptional(out[key])
  }
  if (typeof out.properties === "object" && out.properties !== null) {
    const required = new Set<string>(Array.isArray(out.required) ? out.required : [])
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([name, property]) => {
        const checked = allowNullForOptional(property)
        return [name, required.has(name) ? checked : { anyOf: [checked, { type: "null" }] }]
      })
    )
  }
  return out
}

const components = {
  schemas: Object.fromEntries(
    Object.entries(openapi.components.schemas).map(([name, schema]) => [name, allowNullForOptional(schema)])
  )
}

const Ajv = AjvModule.default ?? AjvModule
const ajv = new Ajv({ strict: false, allErrors: true })
ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
ajv.addFormat("date-time", (value: string) => !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value))
ajv.addSchema({ $id: "studio", components })

const compiled = new Map<string, ValidateFunction>()
const validator = (ref: any): ValidateFunction => {
  const key = JSON.stringify(ref)
  const cached = compiled.get(key)
  if (cached !== undefined) return cached
  {
    const rewrite = (node: any): any =>
      Array.isArray(node)
        ? node.map(rewrite)
        : typeof node === "object" && node !== null
        ? Object.fromEntries(
          Object.entries(node).map(([k, v]) => [k, k === "$ref" ? `studio${String(v)}` : rewrite(v)])
        )
        : node
    const validate = ajv.compile(rewrite(allowNullForOptional(ref)))
    compiled.set(key, validate)
    return validate
  }
}

/** The operations of the OpenAPI, as `METHOD /path/{param}`. */
export const operations: ReadonlyArray<string> = Object.entries(openapi.paths).flatMap(([path, methods]) =>
  Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${path}`)
)

/** The schema of an answer of an operation with a status, as the OpenAPI declares it. */
const responseSchema = (operation: string, status: number): any => {
  const [method, path] = operation.split(" ") as [string, string]
  const responses = openapi.paths[path]?.[method.toLowerCase()]?.responses
  if (responses === undefined) throw new Error(`no operation ${operation} in the OpenAPI`)
  return responses[String(status)]?.content?.["application/json"]?.schema
}

/** The schema of one streamed chunk. */
export const chunkSchema = { $ref: "#/components/schemas/ChatCompletionVllmStreamingMessage" }

/** The schema of a FastAPI `{"detail": "..."}` error (not listed per status in the OpenAPI). */
export const detailSchema = {
  type: "object",
  required: ["detail"],
  properties: { detail: { type: "string" } }
}

/**
 * Checks a JSON answer against the OpenAPI: the operation's schema for 200 and 422, FastAPI's
 * `{"detail": string}` for the other statuses, which the OpenAPI does not list. Returns the errors.
 */
export const openApiErrors = (operation: string, answer: Answer): ReadonlyArray<string> => {
  const declared = responseSchema(operation, answer.status)
  const schema = declared ?? (answer.status === 200 ? undefined : detailSchema)
  if (schema === undefined) return [`${operation} declares no ${answer.status} answer`]
  return errorsOf(schema, answer.json)
}

/** Checks a value against a schema (with `$ref`s into the OpenAPI's components). */
export const errorsOf = (schema: any, value: unknown): ReadonlyArray<string> => {
  const validate = validator(schema)
  return validate(value)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath || "(root)"} ${error.message ?? ""}`)
}
