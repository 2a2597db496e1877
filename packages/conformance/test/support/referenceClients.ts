/**
 * A client of the reference service made with `options`, in memory and over a socket on each of the line's
 * transports (127.0.0.1, port 0): for a test that checks one behaviour everywhere a user meets it. Each is made
 * afresh in the scope it runs in, so each test has a service of its own.
 */
import { Effect, Layer, Redacted, type Scope, transportLayers } from "@studio-effect/line"
import { StudioClient } from "studio-effect"
import * as Reference from "studio-effect/reference"

export const referenceClients = (
  options: Reference.ReferenceOptions = {}
): ReadonlyArray<readonly [string, Effect.Effect<Layer.Layer<StudioClient.StudioClient>, unknown, Scope.Scope>]> => [
  ["in memory", Effect.succeed(Reference.layerClient({ ...options, client: { apiKey: Redacted.make("k") } }))],
  ...transportLayers.map(([name, transport]) =>
    [
      `over a socket (${name})`,
      Effect.map(Reference.listen({ ...options, apiKeys: ["k"] }), (server) =>
        StudioClient.layer({ apiKey: Redacted.make("k"), baseUrl: server.url }).pipe(
          Layer.orDie,
          Layer.provide(transport)
        ))
    ] as const
  )
]
