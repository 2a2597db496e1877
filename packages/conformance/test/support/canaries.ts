/**
 * Canary secrets: an API key and tool credential headers to search for in everything the SDK emits, and
 * requests that carry them.
 */

export const canaryKey = "sk-CANARY-KEY-7e3d91a0c4"
export const canaryMcp = "Bearer CANARY-MCP-2f6b"
export const canaryHttp = "CANARY-HTTP-9a1c"
/** Every string that must never leave the SDK; the last one catches any fragment. */
export const canaries = [canaryKey, canaryMcp, canaryHttp, "CANARY"]

/** A run request carrying tool credentials, which travel only in the body to the service. */
export const runRequest = {
  input: "Summarise the page",
  budget: "low" as const,
  tools: [
    {
      type: "mcp" as const,
      server_label: "docs",
      server_url: "https://mcp.example.com",
      headers: { Authorization: canaryMcp }
    },
    {
      type: "http" as const,
      function: { name: "lookup" },
      endpoint: { url: "https://api.example.com/lookup", headers: { "x-api-key": canaryHttp } }
    }
  ]
}

export const chatRequest = { model: "fpmodel-mini", messages: [{ role: "user" as const, content: "Hi there" }] }
