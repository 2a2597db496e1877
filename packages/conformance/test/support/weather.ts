/** A tool-calling conversation held once for the tests of tool loops: one weather tool and the question that calls it. */

export const weather = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "The current weather in a city",
    parameters: {
      type: "object" as const,
      properties: { city: { type: "string", description: "The city" } },
      required: ["city"]
    }
  }
}

export const question = { role: "user" as const, content: "What is the weather in \"Lisbon\"?" }
