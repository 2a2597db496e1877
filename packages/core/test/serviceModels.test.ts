/**
 * The real service's model ids: each stands for one of the interface's hosted models, and the reference
 * service answers to both names; a run's web sources carry a text and a score that falls with their place.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isChatModel, isRunModel } from "../src/reference/modelCatalog.js"
import { dataSourcesOf, webSource } from "../src/reference/runs.js"
import { chatModels, hostedModelOf, serviceModelIds } from "../src/wire/models.js"

describe("the real service's model ids", () => {
  it("each names a hosted model; either name is a chat and a run model; others are not hosted", () => {
    for (const [id, name] of Object.entries(serviceModelIds)) {
      expect(chatModels).toContain(name)
      expect(hostedModelOf(id)).toBe(name)
      expect(hostedModelOf(name)).toBe(name)
      expect(isChatModel(id, [])).toBe(true)
      expect(isRunModel(id, [])).toBe(true)
    }
    fc.assert(fc.property(fc.string(), (model) => {
      fc.pre(!(model in serviceModelIds) && !(chatModels as ReadonlyArray<string>).includes(model))
      expect(hostedModelOf(model)).toBeUndefined()
      expect(isChatModel(model, [])).toBe(false)
      expect(isChatModel(model, [model])).toBe(true)
    }))
  })
})

describe("a run's web sources", () => {
  it("carry their url, a text naming it, and a score in (0, 1] that falls with their place", () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), fc.nat({ max: 1000 }), (question, place) => {
      const source = webSource("https://www.example.com/", question, place)
      expect(source.url).toBe("https://www.example.com/")
      expect(source.text).toContain("https://www.example.com/")
      expect(source.text.length).toBeLessThan(200)
      expect(source.score).toBeGreaterThan(0)
      expect(source.score).toBeLessThanOrEqual(1)
      expect(webSource("https://www.example.com/", question, place + 1).score).toBeLessThanOrEqual(source.score)
    }))
    const sources = dataSourcesOf({
      input: "Which tea is green?",
      tools: [{ type: "web_search", urls: ["example.com", "docs.example.org"] }]
    })["web_search"] as ReadonlyArray<{ url: string; text: string; score: number }>
    expect(sources.map((source) => source.url)).toEqual(["https://www.example.com/", "https://docs.example.org/"])
    expect(sources[0]!.text).toContain("Which tea is green?")
    expect(sources[0]!.score).toBeGreaterThan(sources[1]!.score)
  })
})
