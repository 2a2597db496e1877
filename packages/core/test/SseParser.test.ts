import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { joinBatch, SseParser } from "../src/sse/SseParser.js"
import { splitAt } from "./support/bytes.js"

const encoder = new TextEncoder()

const parseAll = (parts: ReadonlyArray<Uint8Array>): Array<string> => {
  const parser = new SseParser()
  const out: Array<string> = []
  for (const part of parts) out.push(...parser.push(part))
  out.push(...parser.end())
  return out
}

/** Event payloads: any text without line breaks, including multi-byte characters. */
const payload = fc.string({ unit: "grapheme", maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, " "))
const lineEnding = fc.constantFrom("\n", "\r\n", "\r")

/** An SSE body in one of the framings a client must accept, and the payloads it carries. */
const framedBody = fc.record({
  payloads: fc.array(payload, { maxLength: 12 }),
  eol: lineEnding,
  spaceAfterColon: fc.boolean(),
  comments: fc.boolean(),
  eventLines: fc.boolean()
}).map(({ comments, eol, eventLines, payloads, spaceAfterColon }) => {
  let body = ""
  for (const data of payloads) {
    if (comments) body += `: keep-alive${eol}`
    if (eventLines) body += `event: message${eol}id: 7${eol}`
    body += `data:${spaceAfterColon ? " " : ""}${data}${eol}${eol}`
  }
  // Without the optional space after "data:", a leading space of the payload is the one that is dropped.
  return { body, payloads: spaceAfterColon ? payloads : payloads.map((data) => data.replace(/^ /, "")) }
})

describe("SseParser", () => {
  it("gives the same events however the body is split into reads, even inside UTF-8 characters", () =>
    fc.assert(
      fc.property(framedBody, fc.array(fc.nat(), { maxLength: 20 }), ({ body, payloads }, offsets) => {
        const bytes = encoder.encode(body)
        expect(parseAll(splitAt(bytes, offsets))).toEqual(payloads)
        expect(parseAll([bytes])).toEqual(payloads)
      }),
      { numRuns: 500 }
    ))

  it("splits every byte into its own read", () => {
    const body = "data: héllo 🌍\r\n\r\n: c\r\ndata:x\r\rdata: [DONE]\n\n"
    const bytes = encoder.encode(body)
    const parts = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1))
    expect(parseAll(parts)).toEqual(["héllo 🌍", "x", "[DONE]"])
  })

  it("joins multi-line data with a line feed and flushes a last event without a blank line", () => {
    expect(parseAll([encoder.encode("data: a\ndata: b\n\ndata: c")])).toEqual(["a\nb", "c"])
  })

  it("a 32 MiB line in 64 KiB reads is joined once (linear), and an event of any size up to the limit passes", () => {
    const line = "x".repeat(32 * 1024 * 1024)
    const bytes = encoder.encode(`data: ${line}\n\ndata: [DONE]\n\n`)
    const parser = new SseParser(32 * 1024 * 1024)
    const out: Array<string> = []
    for (let offset = 0; offset < bytes.length; offset += 64 * 1024) {
      out.push(...parser.push(bytes.subarray(offset, offset + 64 * 1024)))
    }
    out.push(...parser.end())
    expect(parser.tooLarge).toBe(false)
    expect(out.length).toBe(2)
    expect(out[0]!.length).toBe(line.length)
    expect(out[1]).toBe("[DONE]")
  })

  it("property: an event within maxEventSize passes, a larger one stops the parser, however it is split", () =>
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.string({ maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, "")), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (max, lines, offsets) => {
          const body = lines.map((line) => `data: ${line}\n`).join("") + "\n"
          // the data's size, and the event's whole text (what a line being read counts with its field name)
          const size = lines.join("\n").length
          const text = body.length
          const parser = new SseParser(max)
          const out: Array<string> = []
          for (const part of splitAt(encoder.encode(body), offsets)) out.push(...parser.push(part))
          out.push(...parser.end())
          if (text <= max) {
            expect(parser.tooLarge).toBe(false)
            expect(out).toEqual([lines.join("\n")])
          } else if (size > max) {
            expect(parser.tooLarge).toBe(true)
            expect(out).toEqual([])
          } else {
            expect(parser.tooLarge ? [] : out).toEqual(parser.tooLarge ? [] : [lines.join("\n")])
          }
        }
      ),
      { numRuns: 300 }
    ))

  it("an event of a million empty data lines is held in strings proportional to its size, not one per line", () => {
    const lines = 1024 * 1024
    const read = encoder.encode("data:\n".repeat(8 * 1024))
    const parser = new SseParser(8 * 1024 * 1024)
    let most = 0
    for (let sent = 0; sent < lines; sent += 8 * 1024) {
      expect(parser.push(read)).toEqual([])
      most = Math.max(most, parser.heldStrings)
    }
    // one string per joinBatch lines, and at most joinBatch lines not yet joined (before: one per line)
    expect(most).toBeLessThanOrEqual(lines / joinBatch + joinBatch)
    const events = parser.push(encoder.encode("\n"))
    expect(events.length).toBe(1)
    expect(events[0]).toBe("\n".repeat(lines - 1))
    expect(parser.heldStrings).toBe(0)
  })

  it("a line in 100,000 one-byte reads is held in at most joinBatch strings", () => {
    const parser = new SseParser()
    parser.push(encoder.encode("data: "))
    const x = encoder.encode("x")
    let most = 0
    for (let i = 0; i < 100_000; i++) {
      parser.push(x)
      most = Math.max(most, parser.heldStrings)
    }
    expect(most).toBeLessThanOrEqual(joinBatch)
    expect(parser.push(encoder.encode("\n\n"))).toEqual(["x".repeat(100_000)])
  })

  it("property: events of data lines across the join batches are given whole, in order", () =>
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: -2, max: 2 }),
        fc.string({ maxLength: 3 }).map((s) => s.replace(/[\r\n]/g, "")),
        fc.array(fc.nat(), { maxLength: 6 }),
        (batches, extra, line, offsets) => {
          const count = Math.max(1, batches * joinBatch + extra)
          const lines = Array.from({ length: count }, (_, i) => `${line}${i % 10}`)
          const body = lines.map((l) => `data: ${l}\n`).join("") + "\ndata: next\n\n"
          expect(parseAll(splitAt(encoder.encode(body), offsets))).toEqual([lines.join("\n"), "next"])
        }
      ),
      { numRuns: 60 }
    ))

  it("a line that never ends is kept only up to maxEventSize", () => {
    const parser = new SseParser(1024)
    for (let i = 0; i < 100 && !parser.tooLarge; i++) parser.push(encoder.encode(i === 0 ? "data: " : "y".repeat(100)))
    expect(parser.tooLarge).toBe(true)
    expect(parser.push(encoder.encode("\n\n"))).toEqual([])
  })

  it("never throws on arbitrary bytes", () =>
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 10 }), (parts) => {
        const events = parseAll(parts)
        expect(Array.isArray(events)).toBe(true)
      })
    ))
})
