/**
 * The Batch API's rules: each line of a batch's file, the file's bounds, the metadata of a create, JSON
 * Lines, the queries; and the reference service's store of batches: its states on the caller's clock, its
 * counts, cancel, pages and bounds.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { batchLine, parseMetadataPairs } from "../src/cli/batches.js"
import { makeBatchStore } from "../src/reference/batches.js"
import { batchPage, batchRequestIssues, batchResultsOptions } from "../src/reference/batchRequests.js"
import { makeIds } from "../src/reference/ids.js"
import {
  batchesListQuery,
  batchForm,
  batchIssueMessage,
  batchResultsQuery,
  batchStatuses,
  checkBatchFile,
  checkBatchLine,
  finishedBatchStatuses,
  isFinishedBatchStatus,
  parseBatchMetadata,
  parseJsonLines
} from "../src/wire/batches.js"

const endpoint = "/v1/chat/completions"
const body = { model: "fpmodel-mini", messages: [{ role: "user", content: "hi" }] }
const customId = fc.string({ minLength: 1, maxLength: 12 })
const line = (custom_id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ custom_id, method: "POST", url: endpoint, body, ...extra })
const isRecord = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value)

describe("a batch's finished statuses", () => {
  it("COMPLETED, FAILED, CANCELLED and EXPIRED are finished; PENDING, PROCESSING and STALE are not", () => {
    expect(batchStatuses.filter(isFinishedBatchStatus)).toEqual(["COMPLETED", "FAILED", "CANCELLED", "EXPIRED"])
  })

  it("a status the SDK does not know is not finished, nor is a known one spelt otherwise", () => {
    fc.assert(fc.property(fc.string(), (status) => {
      expect(isFinishedBatchStatus(status)).toBe((finishedBatchStatuses as ReadonlyArray<string>).includes(status))
    }))
    fc.assert(fc.property(fc.constantFrom(...finishedBatchStatuses), (status) => {
      expect(isFinishedBatchStatus(status.toLowerCase())).toBe(false)
      expect(isFinishedBatchStatus(` ${status}`)).toBe(false)
    }))
  })
})

describe("a line of a batch's file", () => {
  it("a request with its custom_id is accepted, method and url optional", () => {
    fc.assert(fc.property(customId, fc.boolean(), (id, bare) => {
      const text = bare ? JSON.stringify({ custom_id: id, body }) : line(id)
      expect(checkBatchLine(text, endpoint)).toEqual({ customId: id, body })
    }))
  })

  it("text that is not JSON is refused", () => {
    fc.assert(fc.property(fc.string(), (text) => {
      let json = true
      try {
        JSON.parse(text)
      } catch {
        json = false
      }
      fc.pre(!json)
      expect(checkBatchLine(text, endpoint)).toBe("is not JSON")
    }))
  })

  it("JSON that is not an object is refused", () => {
    fc.assert(fc.property(fc.jsonValue().filter((value) => !isRecord(value)), (value) => {
      expect(checkBatchLine(JSON.stringify(value), endpoint)).toBe("is not a JSON object")
    }))
  })

  it("a custom_id that is not a non-empty string is refused", () => {
    fc.assert(fc.property(fc.oneof(fc.constant(""), fc.integer(), fc.constant(null), fc.boolean()), (id) => {
      expect(checkBatchLine(line("x", { custom_id: id }), endpoint)).toMatch(/custom_id/)
    }))
    expect(checkBatchLine(JSON.stringify({ body }), endpoint)).toMatch(/custom_id/)
  })

  it("a method other than POST is refused", () => {
    fc.assert(fc.property(fc.jsonValue().filter((value) => value !== "POST" && value !== null), (method) => {
      expect(checkBatchLine(line("a", { method }), endpoint)).toMatch(/^has method .*only "POST"/)
    }))
  })

  it("a url other than the batch's endpoint is refused", () => {
    fc.assert(fc.property(fc.string().filter((url) => url !== endpoint), (url) => {
      expect(checkBatchLine(line("a", { url }), endpoint)).toMatch(/^has url .*not the batch's endpoint/)
    }))
  })

  it("a body that is not an object is refused", () => {
    fc.assert(fc.property(fc.jsonValue().filter((value) => !isRecord(value)), (value) => {
      expect(checkBatchLine(line("a", { body: value }), endpoint)).toMatch(/has no body/)
    }))
  })
})

describe("a batch's file", () => {
  it("every line is kept in order, blank lines and CRLF endings skipped", () => {
    fc.assert(fc.property(fc.uniqueArray(customId, { minLength: 1, maxLength: 20 }), fc.boolean(), (ids, crlf) => {
      const text = ids.map((id) => line(id)).join(crlf ? "\r\n\n" : "\n") + "\n"
      const checked = checkBatchFile(text, endpoint)
      expect(checked._tag).toBe("Lines")
      if (checked._tag === "Lines") expect(checked.lines.map((line) => line.customId)).toEqual(ids)
    }))
  })

  it("an endpoint that is not a batch's is refused", () => {
    fc.assert(fc.property(fc.string().filter((other) => other !== endpoint), (other) => {
      expect(checkBatchFile(line("a"), other)).toEqual({
        _tag: "Invalid",
        issues: [{ line: 0, message: `endpoint ${JSON.stringify(other)} is not one of ${endpoint}` }]
      })
    }))
  })

  it("a file with no request is refused", () => {
    fc.assert(fc.property(fc.stringOf(fc.constantFrom(" ", "\n", "\t", "\r")), (blank) => {
      expect(checkBatchFile(blank, endpoint)).toEqual({
        _tag: "Invalid",
        issues: [{ line: 0, message: "the file has no request" }]
      })
    }))
  })

  it("more lines than the bound are refused", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 10 }), (maxLines, extra) => {
      const text = Array.from({ length: maxLines + extra }, (_, index) => line(`r${index}`)).join("\n")
      const checked = checkBatchFile(text, endpoint, { maxLines, maxLineLength: 1000 })
      expect(checked).toEqual({
        _tag: "Invalid",
        issues: [{ line: 0, message: `the file has more than ${maxLines} lines` }]
      })
      expect(checkBatchFile(text, endpoint, { maxLines: maxLines + extra, maxLineLength: 1000 })._tag).toBe("Lines")
    }))
  })

  it("a line longer than the bound is refused by its number", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 50 }), (before, over) => {
      const long = line("long", { pad: "x".repeat(100 + over) })
      const lines = [...Array.from({ length: before }, (_, index) => line(`r${index}`)), long]
      const checked = checkBatchFile(lines.join("\n"), endpoint, { maxLines: 100, maxLineLength: long.length - 1 })
      expect(checked).toEqual({
        _tag: "Invalid",
        issues: [{ line: before + 1, message: `is longer than ${long.length - 1} characters` }]
      })
    }))
  })

  it("a custom_id used twice is refused at its second line", () => {
    fc.assert(fc.property(customId, fc.integer({ min: 0, max: 4 }), (id, between) => {
      const lines = [line(id), ...Array.from({ length: between }, (_, index) => line(`${id}/${index}`)), line(id)]
      expect(checkBatchFile(lines.join("\n"), endpoint)).toEqual({
        _tag: "Invalid",
        issues: [{ line: between + 2, message: `repeats custom_id ${JSON.stringify(id)}` }]
      })
    }))
  })

  it("broken lines are reported by number, at most the first 20", () => {
    fc.assert(fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 60 }), (broken) => {
      fc.pre(broken.some((b) => b))
      const text = broken.map((bad, index) => bad ? "{not json" : line(`r${index}`)).join("\n")
      const checked = checkBatchFile(text, endpoint)
      const expected = broken.flatMap((bad, index) => bad ? [{ line: index + 1, message: "is not JSON" }] : [])
      expect(checked).toEqual({ _tag: "Invalid", issues: expected.slice(0, 20) })
      expect(batchIssueMessage(expected[0]!)).toBe(`line ${expected[0]!.line} is not JSON`)
    }))
  })
})

describe("the metadata of a create", () => {
  it("an object of strings is kept, none when absent", () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.string()), (metadata) => {
      expect(parseBatchMetadata(JSON.stringify(metadata))).toEqual({ _tag: "Metadata", metadata })
    }))
    expect(parseBatchMetadata(undefined)).toEqual({ _tag: "Metadata", metadata: undefined })
  })

  it("anything else is refused", () => {
    fc.assert(fc.property(fc.jsonValue().filter((value) => !isRecord(value)), (value) => {
      expect(parseBatchMetadata(JSON.stringify(value))._tag).toBe("Invalid")
    }))
    fc.assert(fc.property(fc.string({ minLength: 1 }), fc.oneof(fc.integer(), fc.boolean()), (key, value) => {
      expect(parseBatchMetadata(JSON.stringify({ [key]: value }))).toEqual({
        _tag: "Invalid",
        message: `metadata.${key} is not a string`
      })
    }))
    expect(parseBatchMetadata("{")._tag).toBe("Invalid")
  })

  it("the form holds the file, the endpoint and the metadata", async () => {
    const { bytes, contentType } = await batchForm(new Blob([line("a")]), "in.jsonl", {
      endpoint,
      metadata: { team: "a" }
    })
    const form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": contentType } })
      .formData()
    expect(await (form.get("file") as File).text()).toBe(line("a"))
    expect(form.get("endpoint")).toBe(endpoint)
    expect(JSON.parse(form.get("metadata") as string)).toEqual({ team: "a" })
  })
})

describe("JSON Lines and queries", () => {
  it("the values of JSON Lines come back in order; a broken line is named", () => {
    fc.assert(fc.property(fc.array(fc.jsonValue()), (values) => {
      const lines = values.map((value) => JSON.stringify(value))
      expect(parseJsonLines(lines.join("\n"))).toEqual({ _tag: "Values", values: JSON.parse(JSON.stringify(values)) })
      expect(parseJsonLines([...lines, "{"].join("\n"))).toEqual({ _tag: "Broken", line: values.length + 1 })
    }))
  })

  it("a page's query and a results query hold what is given", () => {
    fc.assert(
      fc.property(
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.nat(), { nil: undefined }),
        (after, limit) => {
          const query = new URLSearchParams(batchesListQuery({ after, limit }))
          expect(query.get("after") ?? undefined).toBe(after)
          expect(query.get("limit") ?? undefined).toBe(limit === undefined ? undefined : String(limit))
        }
      )
    )
    expect(batchResultsQuery({ fileType: "error", force: true })).toBe("file_type=error&force=true")
    expect(batchResultsQuery({})).toBe("")
  })
})

describe("the reference service's batches", () => {
  const timing = { pendingDuration: 1000, lineDuration: 200 }
  const linesOf = (count: number) =>
    Array.from({ length: count }, (_, index) => ({ customId: `r${index}`, body: { index } }))
  const make = (limits = { maxBatches: 10, maxBatchesSize: 1_000_000 }) =>
    makeBatchStore({ ids: makeIds(1), limits, timing })

  it("PENDING, then PROCESSING a line at a time, then COMPLETED with its counts", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.boolean(), { maxLength: 12 }), (count, fails) => {
        const store = make()
        const created = store.create({ endpoint, lines: linesOf(count), size: 10 }, 5_000)
        if ("_tag" in created) throw new Error("refused")
        expect(created).toMatchObject({ status: "PENDING", created_at: 5, completed_at: null, output_file: null })
        expect(store.due(created.id, 5_999)).toEqual([])
        let failed = 0
        for (let step = 1; step <= count; step++) {
          const now = 6_000 + step * 200
          const due = store.due(created.id, now)
          expect(due.map(({ index }) => index)).toEqual([step - 1])
          for (const { index } of due) {
            if (fails[index] === true) failed++
            store.record(
              created.id,
              index,
              fails[index] === true
                ? { _tag: "Refused", status: 422, message: "bad", body: { detail: "bad" } }
                : { _tag: "Answered", body: { ok: index } }
            )
          }
          const view = store.retrieve(created.id, now)!
          expect(view.status).toBe(step === count ? "COMPLETED" : "PROCESSING")
          expect(view.request_counts).toEqual({ total: count, completed: step - failed, failed })
        }
        const done = store.retrieve(created.id, 100_000)!
        expect(done.completed_at).toBe(Math.floor((6_000 + count * 200) / 1000))
        expect(done.error_file === null).toBe(failed === 0)
        const output = store.results(created.id, "output", false, 100_000)
        const errors = store.results(created.id, "error", false, 100_000)
        if (output?._tag !== "Results" || errors?._tag !== "Results") throw new Error("no results")
        const outputLines = parseJsonLines(output.text)
        const errorLines = parseJsonLines(errors.text)
        if (outputLines._tag !== "Values" || errorLines._tag !== "Values") throw new Error("broken")
        expect(outputLines.values.map((value: any) => value.custom_id)).toEqual(
          linesOf(count).filter((_, index) => fails[index] !== true).map((line) => line.customId)
        )
        expect(errorLines.values).toHaveLength(failed)
        for (const value of errorLines.values as Array<any>) {
          expect(value.error).toEqual({ code: "422", message: "bad" })
        }
      })
    )
  })

  it("a cancel stops the lines not yet run; a finished batch cannot be cancelled", () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 10 }), fc.nat(), (count, at) => {
      const store = make()
      const created = store.create({ endpoint, lines: linesOf(count), size: 10 }, 0) as { id: string }
      const ran = at % count
      const now = 1000 + ran * 200
      for (const { index } of store.due(created.id, now)) {
        store.record(created.id, index, { _tag: "Answered", body: {} })
      }
      const cancelled = store.cancel(created.id, now)
      expect(cancelled?._tag).toBe("Cancelled")
      expect(store.due(created.id, 1_000_000)).toEqual([])
      const view = store.retrieve(created.id, 1_000_000)!
      expect(view).toMatchObject({ status: "CANCELLED", cancelled_at: Math.floor(now / 1000) })
      expect(view.request_counts).toEqual({ total: count, completed: ran, failed: 0 })
      expect(store.cancel(created.id, 1_000_000)).toEqual({ _tag: "Finished", status: "CANCELLED" })
      expect(store.results(created.id, "output", false, 1_000_000)?._tag).toBe("Results")
    }))
    expect(make().cancel("nope", 0)).toBeUndefined()
  })

  it("results before the batch has finished need force", () => {
    const store = make()
    const created = store.create({ endpoint, lines: linesOf(3), size: 10 }, 0) as { id: string }
    expect(store.results(created.id, "output", false, 0)).toEqual({ _tag: "Unfinished", status: "PENDING" })
    expect(store.results(created.id, "output", true, 0)).toEqual({ _tag: "Results", text: "" })
    expect(store.results("nope", "output", true, 0)).toBeUndefined()
  })

  it("pages list the newest first, after a cursor, at most the limit", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 6 }), (count, limit) => {
      const store = make({ maxBatches: 100, maxBatchesSize: 1_000_000 })
      const ids = Array.from(
        { length: count },
        (_, index) => (store.create({ endpoint, lines: linesOf(1), size: 1 }, index) as { id: string }).id
      ).reverse()
      const seen: Array<string> = []
      let after: string | undefined
      for (;;) {
        const page = store.list({ after, limit }, 0)
        expect(page.length).toBeLessThanOrEqual(limit)
        if (page.length === 0) break
        seen.push(...page.map((batch) => batch.id))
        after = page.at(-1)!.id
      }
      expect(seen).toEqual(ids)
      expect(store.list({ after: "unknown", limit }, 0)).toEqual([])
    }))
  })

  it("at most maxBatches batches and maxBatchesSize characters are kept, the oldest evicted first", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 5 }),
      fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 20 }),
      (maxBatches, sizes) => {
        const maxBatchesSize = 1000
        const store = make({ maxBatches, maxBatchesSize })
        const kept: Array<string> = []
        for (const size of sizes) {
          const created = store.create({ endpoint, lines: linesOf(1), size }, 0)
          if ("_tag" in created) throw new Error("refused")
          kept.push(created.id)
          const held = store.size()
          expect(held.batches).toBeLessThanOrEqual(maxBatches)
          expect(held.characters).toBeLessThanOrEqual(maxBatchesSize)
        }
        expect(store.retrieve(kept.at(-1)!, 0)).toBeDefined()
      }
    ))
    expect(make({ maxBatches: 2, maxBatchesSize: 10 }).create({ endpoint, lines: linesOf(1), size: 11 }, 0))
      .toMatchObject({ _tag: "TooLarge" })
  })
})

describe("what the reference service reads from a batch request", () => {
  const file = (lines: ReadonlyArray<string>) => new TextEncoder().encode(lines.join("\n"))

  it("a form with a file of requests, its endpoint and metadata is a batch", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(customId, { minLength: 1, maxLength: 10 }),
        fc.dictionary(fc.string(), fc.string()),
        (ids, metadata) => {
          const checked = batchRequestIssues({
            file: file(ids.map((id) => line(id))),
            endpoint,
            metadata: JSON.stringify(metadata)
          })
          expect(checked).toEqual({
            _tag: "Batch",
            batch: { endpoint, metadata, lines: ids.map((id) => ({ customId: id, body })) }
          })
        }
      )
    )
  })

  it("a missing file or endpoint is a missing field; bad metadata, text or lines name their field and line", () => {
    expect(batchRequestIssues({ file: undefined, endpoint: undefined, metadata: undefined })).toEqual({
      _tag: "Invalid",
      issues: [
        { loc: ["body", "file"], msg: "Field required", type: "missing" },
        { loc: ["body", "endpoint"], msg: "Field required", type: "missing" }
      ]
    })
    expect(batchRequestIssues({ file: file([line("a")]), endpoint, metadata: "[1]" })).toMatchObject({
      _tag: "Invalid",
      issues: [{ loc: ["body", "metadata"] }]
    })
    expect(batchRequestIssues({ file: new Uint8Array([0xff, 0xfe]), endpoint, metadata: undefined }))
      .toMatchObject({ _tag: "Invalid", issues: [{ loc: ["body", "file"], msg: /UTF-8/ }] })
    expect(batchRequestIssues({ file: file([line("a")]), endpoint: "/v1/other", metadata: undefined }))
      .toMatchObject({ _tag: "Invalid", issues: [{ loc: ["body", "endpoint"] }] })
    fc.assert(fc.property(fc.integer({ min: 0, max: 5 }), (before) => {
      const lines = [...Array.from({ length: before }, (_, index) => line(`r${index}`)), "[]"]
      expect(batchRequestIssues({ file: file(lines), endpoint, metadata: undefined })).toEqual({
        _tag: "Invalid",
        issues: [{
          loc: ["body", "file", before + 1],
          msg: `line ${before + 1} is not a JSON object`,
          type: "value_error"
        }]
      })
    }))
  })

  it("a page's limit is a whole number from 1 to 100, 20 when not given", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 100 }), fc.option(customId, { nil: undefined }), (limit, after) => {
      const query = new URLSearchParams(batchesListQuery({ after, limit }))
      expect(batchPage(query)).toEqual({ _tag: "Page", page: { after, limit } })
    }))
    fc.assert(fc.property(
      fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 101 }), fc.double().filter((n) => !Number.isInteger(n))).map(
        String
      ),
      (limit) => {
        expect(batchPage(new URLSearchParams({ limit }))).toMatchObject({
          _tag: "Invalid",
          issues: [{ loc: ["query", "limit"] }]
        })
      }
    ))
    expect(batchPage(new URLSearchParams())).toEqual({ _tag: "Page", page: { after: undefined, limit: 20 } })
  })

  it("results are the output file unless error is asked; force is a boolean; NOT_GIVEN is left out", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("output", "error", undefined),
        fc.option(fc.boolean(), { nil: undefined }),
        (fileType, force) => {
          const query = new URLSearchParams(
            batchResultsQuery({ fileType: fileType as "output" | "error" | undefined, force })
          )
          expect(batchResultsOptions(query)).toEqual({
            _tag: "Results",
            fileType: fileType ?? "output",
            force: force === true
          })
        }
      )
    )
    fc.assert(
      fc.property(fc.string().filter((value) => !["", "output", "error", "NOT_GIVEN"].includes(value)), (fileType) => {
        expect(batchResultsOptions(new URLSearchParams({ file_type: fileType }))).toMatchObject({
          _tag: "Invalid",
          issues: [{ loc: ["query", "file_type"] }]
        })
      })
    )
    fc.assert(
      fc.property(
        fc.string().filter((value) => !["", "true", "false", "NOT_GIVEN"].includes(value.toLowerCase())),
        (force) => {
          expect(batchResultsOptions(new URLSearchParams({ force }))).toMatchObject({
            _tag: "Invalid",
            issues: [{ loc: ["query", "force"] }]
          })
        }
      )
    )
    expect(batchResultsOptions(new URLSearchParams({ file_type: "NOT_GIVEN", force: "NOT_GIVEN" }))).toEqual({
      _tag: "Results",
      fileType: "output",
      force: false
    })
  })
})

describe("the command's words", () => {
  it("--metadata key=value pairs are the metadata; a pair without a key or given twice is refused", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1 }).filter((key) => !key.includes("=")), fc.string()),
        (metadata) => {
          const pairs = Object.entries(metadata).map(([key, value]) => `${key}=${value}`)
          expect(parseMetadataPairs(pairs)).toEqual({
            _tag: "Metadata",
            metadata: pairs.length === 0 ? undefined : metadata
          })
          if (pairs.length > 0) expect(parseMetadataPairs([...pairs, pairs[0]!])._tag).toBe("Invalid")
        }
      )
    )
    fc.assert(fc.property(fc.string().filter((pair) => pair.indexOf("=") <= 0), (pair) => {
      expect(parseMetadataPairs([pair])).toEqual({
        _tag: "Invalid",
        message: `--metadata ${pair}: write it as key=value`
      })
    }))
  })

  it("a batch's line: id, status, done of all, failed", () => {
    expect(batchLine({ id: "b1", status: "PROCESSING", request_counts: { total: 5, completed: 2, failed: 1 } }))
      .toBe("b1  PROCESSING  3/5  1 failed")
  })
})
