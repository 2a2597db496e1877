/**
 * Every rule of a run request, as a property: generated valid requests pass, and each kind of breach is
 * reported at its path (and nowhere else) with a message a person can act on.
 */
import { describe, expect, it } from "@studio-effect/line"
import * as fc from "fast-check"
import { MaestroSchema } from "studio-effect"
import {
  absoluteUrl,
  invalidWebSearchUrl,
  nonEmptyName,
  notAbsoluteUrl,
  responseLanguages,
  text,
  validHttpTool,
  validMcpTool,
  validRequirement,
  validRunMessages,
  validRunRequest,
  validWebSearchTool,
  webSearchUrl,
  webSearchUrlShapes,
  wordsText
} from "./arbitraries.js"
import { copy, expectIssuesAt, expectValid, wireForm } from "./support.js"

const runs = { numRuns: 200 }

const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}))

/** A copy of `items` with the element at `index` replaced. */
const replaceAt = <A>(items: ReadonlyArray<A>, index: number, item: unknown): Array<A> =>
  items.map((current, i) => i === index ? item as A : current)

/** Appends a tool to the request's tools and returns its index. */
const appendTool = (request: any, tool: unknown): number => {
  request.tools = [...(request.tools ?? []), tool]
  return request.tools.length - 1
}

describe("run request: valid requests", () => {
  it("every generated valid request passes and decodes to what is sent", () => {
    fc.assert(
      fc.property(validRunRequest, (request) => {
        expect(expectValid(MaestroSchema.RunRequest, request)).toEqual(wireForm(request))
      }),
      runs
    )
  })

  it("an empty request passes (every field is optional as listed)", () => {
    expectValid(MaestroSchema.RunRequest, {})
  })
})

describe("run request: input", () => {
  it("input that is neither a string nor an array of messages is reported at input", () => {
    fc.assert(
      fc.property(validRunRequest, fc.oneof(fc.integer(), fc.boolean(), fc.constant({})), (
        request,
        input
      ) => {
        const out = copy(request)
        out.input = input
        const issues = expectIssuesAt(MaestroSchema.RunRequest, out, ["input"])
        expect(issues[0]!.message).toMatch(/string or an array/)
      }),
      runs
    )
  })

  it("two turns of the same role in a row are reported at input[i].role of the second", () => {
    fc.assert(
      fc.property(validRunRequest, validRunMessages, fc.nat(), (request, messages, at) => {
        const out = copy(request)
        const i = 1 + at % messages.length
        const turns = [...messages]
        turns.splice(i, 0, { ...messages[i - 1]! })
        out.input = turns
        const issues = expectIssuesAt(MaestroSchema.RunRequest, out, [`input[${i}].role`])
        expect(issues[0]!.message).toMatch(/alternate between user and assistant/)
      }),
      runs
    )
  })

  it("a turn whose role is not user or assistant is reported at input[i].role", () => {
    fc.assert(
      fc.property(
        validRunRequest,
        validRunMessages,
        fc.nat(),
        fc.constantFrom("system", "tool", "User", ""),
        (request, messages, at, role) => {
          const out = copy(request)
          const i = at % messages.length
          out.input = messages.map((message, index) => index === i ? { ...message, role } : message)
          expectIssuesAt(MaestroSchema.RunRequest, out, [`input[${i}].role`], /"user", "assistant"/)
        }
      ),
      runs
    )
  })

  it("a turn without string content is reported at input[i].content", () => {
    fc.assert(
      fc.property(validRunRequest, validRunMessages, fc.nat(), (request, messages, at) => {
        const out = copy(request)
        const i = at % messages.length
        out.input = messages.map((message, index) => index === i ? { role: message.role } : message)
        expectIssuesAt(MaestroSchema.RunRequest, out, [`input[${i}].content`])
      }),
      runs
    )
  })
})

describe("run request: requirements", () => {
  it("more than 10 requirements are reported at requirements", () => {
    fc.assert(
      fc.property(validRunRequest, fc.array(validRequirement, { minLength: 11, maxLength: 15 }), (request, reqs) => {
        const out = copy(request)
        out.requirements = reqs
        const issues = expectIssuesAt(MaestroSchema.RunRequest, out, ["requirements"])
        expect(issues[0]!.message).toMatch(/at most 10 requirements/)
      }),
      { numRuns: 50 }
    )
  })

  it("exactly 10 requirements pass", () => {
    fc.assert(
      fc.property(fc.array(validRequirement, { minLength: 10, maxLength: 10 }), (requirements) => {
        expectValid(MaestroSchema.RunRequest, { requirements })
      }),
      { numRuns: 30 }
    )
  })

  it("a requirement without a non-empty name is reported at requirements[i].name", () => {
    fc.assert(
      fc.property(
        fc.array(validRequirement, { minLength: 1, maxLength: 10 }),
        fc.nat(),
        fc.oneof(fc.constant(undefined), fc.constant(""), notAString),
        (requirements, at, name) => {
          const i = at % requirements.length
          const bad: Record<string, unknown> = { ...requirements[i] }
          if (name === undefined) delete bad.name
          else bad.name = name
          expectIssuesAt(MaestroSchema.RunRequest, { requirements: replaceAt(requirements, i, bad as any) }, [
            `requirements[${i}].name`
          ])
        }
      ),
      runs
    )
  })

  it("a description of more than 128 words is reported at requirements[i].description", () => {
    fc.assert(
      fc.property(
        fc.array(validRequirement, { minLength: 1, maxLength: 10 }),
        fc.nat(),
        fc.integer({ min: 129, max: 200 }).chain(wordsText),
        (requirements, at, description) => {
          const i = at % requirements.length
          const out = { requirements: replaceAt(requirements, i, { ...requirements[i]!, description }) }
          const issues = expectIssuesAt(MaestroSchema.RunRequest, out, [`requirements[${i}].description`])
          expect(issues[0]!.message).toMatch(/at most 128 words/)
        }
      ),
      { numRuns: 100 }
    )
  })

  it("a missing description is reported at requirements[i].description", () => {
    fc.assert(
      fc.property(nonEmptyName, (name) => {
        expectIssuesAt(MaestroSchema.RunRequest, { requirements: [{ name }] }, ["requirements[0].description"])
      }),
      { numRuns: 20 }
    )
  })

  it("too many requirements and a breach inside one are both reported", () => {
    fc.assert(
      fc.property(fc.array(validRequirement, { minLength: 11, maxLength: 13 }), fc.nat(), (requirements, at) => {
        const i = at % requirements.length
        const out = { requirements: replaceAt(requirements, i, { ...requirements[i]!, name: "" }) }
        expectIssuesAt(MaestroSchema.RunRequest, out, ["requirements", `requirements[${i}].name`])
      }),
      { numRuns: 50 }
    )
  })

  it("countWords counts words however they are spaced", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }).chain((n) => fc.tuple(fc.constant(n), wordsText(n))), ([n, t]) => {
        expect(MaestroSchema.countWords(t)).toBe(n)
        expect(MaestroSchema.countWords(`  \n${t}\t `)).toBe(n)
      }),
      { numRuns: 100 }
    )
  })
})

describe("run request: tools", () => {
  it("a tool whose type is none of mcp, http, file_search, web_search is reported at tools[i].type", () => {
    fc.assert(
      fc.property(validRunRequest, fc.constantFrom("function", "code", "MCP", ""), (request, type) => {
        const out = copy(request)
        const i = appendTool(out, { type })
        expectIssuesAt(
          MaestroSchema.RunRequest,
          out,
          [`tools[${i}].type`],
          /"mcp", "http", "file_search", "web_search"/
        )
      }),
      runs
    )
  })

  it("an mcp tool without a non-empty server_label is reported at tools[i].server_label", () => {
    fc.assert(
      fc.property(
        validRunRequest,
        validMcpTool("unique-label"),
        fc.oneof(fc.constant(undefined), fc.constant(""), notAString),
        (request, tool, label) => {
          const out = copy(request)
          const bad: Record<string, unknown> = { ...tool }
          if (label === undefined) delete bad.server_label
          else bad.server_label = label
          const i = appendTool(out, bad)
          expectIssuesAt(MaestroSchema.RunRequest, out, [`tools[${i}].server_label`])
        }
      ),
      runs
    )
  })

  it("an mcp server_label used twice in the run is reported at tools[j].server_label of the second use", () => {
    fc.assert(
      fc.property(
        validRunRequest,
        validMcpTool("shared"),
        validMcpTool("shared"),
        validWebSearchTool,
        (request, first, second, between) => {
          const out = copy(request)
          appendTool(out, first)
          appendTool(out, between)
          const j = appendTool(out, second)
          const issues = expectIssuesAt(MaestroSchema.RunRequest, out, [`tools[${j}].server_label`])
          expect(issues[0]!.message).toMatch(/"shared" is used by another mcp tool/)
        }
      ),
      runs
    )
  })

  it("a duplicate label and a bad URL in another tool are both reported", () => {
    fc.assert(
      fc.property(validMcpTool("shared"), invalidWebSearchUrl, (tool, url) => {
        const out = { tools: [tool, tool, { type: "web_search", urls: [url] }] }
        expectIssuesAt(MaestroSchema.RunRequest, out, ["tools[1].server_label", "tools[2].urls[0]"])
      }),
      runs
    )
  })

  it("an mcp server_url that is not a fully qualified URL is reported at tools[i].server_url", () => {
    fc.assert(
      fc.property(validRunRequest, validMcpTool("own-label"), notAbsoluteUrl, (request, tool, url) => {
        const out = copy(request)
        const i = appendTool(out, { ...tool, server_url: url })
        expectIssuesAt(MaestroSchema.RunRequest, out, [`tools[${i}].server_url`], /fully qualified URL/)
      }),
      runs
    )
  })

  it("an mcp tool without server_url is reported at tools[i].server_url", () => {
    fc.assert(
      fc.property(validRunRequest, validMcpTool("own-label"), (request, tool) => {
        const out = copy(request)
        const { server_url: _url, ...bad } = tool as any
        const i = appendTool(out, bad)
        expectIssuesAt(MaestroSchema.RunRequest, out, [`tools[${i}].server_url`])
      }),
      runs
    )
  })

  it("every generated absolute URL is accepted as a server_url", () => {
    fc.assert(
      fc.property(absoluteUrl, (url) => {
        expectValid(MaestroSchema.RunRequest, { tools: [{ type: "mcp", server_label: "a", server_url: url }] })
      }),
      runs
    )
  })

  it("an http tool without function is reported at tools[i].function", () => {
    fc.assert(
      fc.property(validRunRequest, validHttpTool, (request, tool) => {
        const out = copy(request)
        const { function: _fn, ...bad } = tool as any
        const i = appendTool(out, bad)
        expectIssuesAt(MaestroSchema.RunRequest, out, [`tools[${i}].function`])
      }),
      runs
    )
  })

  it("an http tool without endpoint.url, or with one that is not absolute, is reported at tools[i].endpoint.url", () => {
    fc.assert(
      fc.property(
        validRunRequest,
        validHttpTool,
        fc.oneof(fc.constant(undefined), notAbsoluteUrl),
        (request, tool, url) => {
          const out = copy(request)
          const bad = copy(tool) as any
          if (url === undefined) delete bad.endpoint.url
          else bad.endpoint.url = url
          const i = appendTool(out, bad)
          expectIssuesAt(MaestroSchema.RunRequest, out, [`tools[${i}].endpoint.url`])
        }
      ),
      runs
    )
  })

  it("an http tool without endpoint is reported at tools[i].endpoint", () => {
    fc.assert(
      fc.property(validRunRequest, validHttpTool, (request, tool) => {
        const out = copy(request)
        const { endpoint: _endpoint, ...bad } = tool as any
        const i = appendTool(out, bad)
        expectIssuesAt(MaestroSchema.RunRequest, out, [`tools[${i}].endpoint`])
      }),
      runs
    )
  })

  it("each of the four web_search URL shapes is accepted", () => {
    for (const [shape, urls] of Object.entries(webSearchUrlShapes)) {
      fc.assert(
        fc.property(urls, (url) => {
          expect(MaestroSchema.isWebSearchUrl(url), `${shape}: ${url}`).toBe(true)
          expectValid(MaestroSchema.RunRequest, { tools: [{ type: "web_search", urls: [url] }] })
        }),
        { numRuns: 100 }
      )
    }
  })

  it("a web_search URL in none of the four shapes is reported at tools[i].urls[j]", () => {
    fc.assert(
      fc.property(
        validRunRequest,
        fc.array(webSearchUrl, { maxLength: 3 }),
        fc.nat(),
        invalidWebSearchUrl,
        (request, urls, at, bad) => {
          const out = copy(request)
          const j = at % (urls.length + 1)
          const all = [...urls]
          all.splice(j, 0, bad)
          const i = appendTool(out, { type: "web_search", urls: all })
          const issues = expectIssuesAt(MaestroSchema.RunRequest, out, [`tools[${i}].urls[${j}]`])
          expect(issues[0]!.message).toMatch(/https:\/\/<domain>, <domain>, <domain>\/<path> or <subdomain>\.<domain>/)
        }
      ),
      runs
    )
  })

  it("file_search labels and file_ids must be strings: reported at tools[i].labels[j]", () => {
    fc.assert(
      fc.property(validRunRequest, fc.array(nonEmptyName, { maxLength: 3 }), notAString, (request, labels, bad) => {
        const out = copy(request)
        const i = appendTool(out, { type: "file_search", labels: [...labels, bad] })
        expectIssuesAt(MaestroSchema.RunRequest, out, [`tools[${i}].labels[${labels.length}]`])
      }),
      runs
    )
  })

  it("file_search retrieval options: a mode, strategy or max_neighbors out of range is reported at its path", () => {
    const breaches = fc.oneof(
      fc.string().filter((mode) => mode !== "AND" && mode !== "OR").map((v) => ["labels_filter_mode", v] as const),
      fc.string().filter((s) => !["segments", "default", "add_neighbors", "full_doc"].includes(s)).map((v) =>
        ["retrieval_strategy", v] as const
      ),
      fc.oneof(fc.integer({ max: -1 }), fc.double({ noInteger: true, noNaN: true })).map((v) =>
        ["max_neighbors", v] as const
      ),
      fc.oneof(fc.integer(), fc.boolean(), fc.constant({})).map((v) => ["path", v] as const)
    )
    fc.assert(
      fc.property(validRunRequest, breaches, fc.boolean(), (request, [field, bad], legacy) => {
        const out = copy(request)
        if (legacy) {
          out.tool_resources = { file_search: { [field]: bad } }
          expectIssuesAt(MaestroSchema.RunRequest, out, [`tool_resources.file_search.${field}`])
        } else {
          const i = appendTool(out, { type: "file_search", [field]: bad })
          expectIssuesAt(MaestroSchema.RunRequest, out, [`tools[${i}].${field}`])
        }
      }),
      runs
    )
  })
})

describe("run request: models, budget, include, response_language", () => {
  it("more than one model is reported at models", () => {
    fc.assert(
      fc.property(validRunRequest, fc.array(nonEmptyName, { minLength: 2, maxLength: 4 }), (request, models) => {
        const out = copy(request)
        out.models = models
        expectIssuesAt(MaestroSchema.RunRequest, out, ["models"], /single model/)
      }),
      runs
    )
  })

  it("a budget other than low, medium or high is reported at budget", () => {
    fc.assert(
      fc.property(
        validRunRequest,
        fc.string().filter((b) => !["low", "medium", "high"].includes(b)),
        (request, budget) => {
          const out = copy(request)
          out.budget = budget
          expectIssuesAt(MaestroSchema.RunRequest, out, ["budget"], /"low", "medium", "high"/)
        }
      ),
      runs
    )
  })

  it("an include entry other than data_sources or requirements_result is reported at include[j]", () => {
    fc.assert(
      fc.property(
        validRunRequest,
        fc.constantFrom("requirements_result.metadata", "usage", "DATA_SOURCES", ""),
        (request, entry) => {
          const out = copy(request)
          const include = out.include ?? []
          out.include = [...include, entry]
          expectIssuesAt(MaestroSchema.RunRequest, out, [`include[${include.length}]`])
        }
      ),
      runs
    )
  })

  it("a response_language outside the nine languages and unset is reported at response_language; null, unset and each language pass", () => {
    fc.assert(
      fc.property(
        validRunRequest,
        fc.string().filter((language) =>
          language !== "unset" && !(responseLanguages as ReadonlyArray<string>).includes(language)
        ),
        (request, language) => {
          const out = copy(request)
          out.response_language = language
          expectIssuesAt(MaestroSchema.RunRequest, out, ["response_language"], /"arabic".*"spanish"/)
        }
      ),
      runs
    )
    for (const language of [...responseLanguages, "unset", null]) {
      expectValid(MaestroSchema.RunRequest, { response_language: language })
    }
  })
})

describe("run request: legacy tool_resources", () => {
  it("file_search labels/file_ids and web_search urls under tool_resources are accepted", () => {
    fc.assert(
      fc.property(fc.array(nonEmptyName), fc.array(fc.uuid()), fc.array(webSearchUrl), (labels, fileIds, urls) => {
        expectValid(MaestroSchema.RunRequest, {
          input: "Summarise the attached files",
          tool_resources: { file_search: { labels, file_ids: fileIds }, web_search: { urls } }
        })
      }),
      runs
    )
  })

  it("a tool_resources web_search URL in none of the four shapes is reported at tool_resources.web_search.urls[j]", () => {
    fc.assert(
      fc.property(fc.array(webSearchUrl, { maxLength: 3 }), invalidWebSearchUrl, (urls, bad) => {
        const out = { tool_resources: { web_search: { urls: [...urls, bad] } } }
        expectIssuesAt(MaestroSchema.RunRequest, out, [`tool_resources.web_search.urls[${urls.length}]`])
      }),
      runs
    )
  })

  it("a non-string file_search label under tool_resources is reported at its path", () => {
    fc.assert(
      fc.property(fc.array(nonEmptyName, { maxLength: 3 }), notAString, (labels, bad) => {
        const out = { tool_resources: { file_search: { labels: [...labels, bad] } } }
        expectIssuesAt(MaestroSchema.RunRequest, out, [`tool_resources.file_search.labels[${labels.length}]`])
      }),
      runs
    )
  })
})

describe("run request: several breaches at once", () => {
  const breaches: ReadonlyArray<{ readonly name: string; readonly apply: (request: any) => string }> = [
    {
      name: "turns out of order",
      apply: (r) => (r.input = [{ role: "user", content: "a" }, { role: "user", content: "b" }], "input[1].role")
    },
    { name: "two models", apply: (r) => (r.models = ["fpmodel-mini", "fpmodel-large"], "models") },
    { name: "unknown budget", apply: (r) => (r.budget = "max", "budget") },
    { name: "verbose not a boolean", apply: (r) => (r.verbose = "yes", "verbose") },
    {
      name: "structured RAG switch not a boolean",
      apply: (r) => (r.structured_rag_enabled = 1, "structured_rag_enabled")
    },
    {
      name: "dynamic planning switch not a boolean",
      apply: (r) => (r.dynamic_planning_enabled = "true", "dynamic_planning_enabled")
    },
    { name: "output type neither an object nor json", apply: (r) => (r.output_type = "xml", "output_type") },
    { name: "unknown language", apply: (r) => (r.response_language = "klingon", "response_language") },
    {
      name: "unknown include",
      apply: (r) => {
        r.include = [...(r.include ?? []), "usage"]
        return `include[${r.include.length - 1}]`
      }
    },
    {
      name: "eleven requirements",
      apply: (r) => (r.requirements = Array(11).fill({ name: "a", description: "b" }), "requirements")
    },
    {
      name: "bad web search url",
      apply: (r) => `tools[${appendTool(r, { type: "web_search", urls: ["not a url"] })}].urls[0]`
    },
    {
      name: "mcp without url",
      apply: (r) => `tools[${appendTool(r, { type: "mcp", server_label: "no-url-server" })}].server_url`
    },
    {
      name: "legacy bad url",
      apply: (r) => (r.tool_resources = { web_search: { urls: ["ftp://x.org"] } }, "tool_resources.web_search.urls[0]")
    }
  ]

  it("every breach is reported, each at its path", () => {
    fc.assert(
      fc.property(validRunRequest, fc.subarray([...breaches], { minLength: 2 }), (request, chosen) => {
        const out = copy(request)
        const paths = chosen.map((breach) => breach.apply(out))
        expectIssuesAt(MaestroSchema.RunRequest, out, paths)
      }),
      runs
    )
  })
})

describe("run request: generated text", () => {
  it("generated descriptions of up to 128 words are counted within the limit", () => {
    fc.assert(
      fc.property(validRequirement, (requirement) => {
        expect(MaestroSchema.countWords(requirement.description)).toBeLessThanOrEqual(128)
      }),
      { numRuns: 100 }
    )
  })

  it("message text is kept as given", () => {
    fc.assert(
      fc.property(text, (input) => {
        expect(expectValid(MaestroSchema.RunRequest, { input })).toEqual({ input })
      }),
      { numRuns: 100 }
    )
  })
})
