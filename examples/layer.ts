/**
 * The client every example runs with: the real service when `STUDIO_API_KEY` is set, otherwise the
 * reference service embedded in memory (no account, no network). On Effect 3, `effect3/layer.ts` (its
 * `FetchHttpClient` comes from `@effect/platform`).
 */
import { Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { StudioClient } from "studio-effect"
import * as Reference from "studio-effect/reference"

export const usingRealService = (process.env["STUDIO_API_KEY"] ?? "") !== ""

/** The client; `reference` tunes the embedded service (its pace, its model) and is ignored for the real one. */
export const studioLayer = (
  reference: Reference.ReferenceOptions = {}
): Layer.Layer<StudioClient.StudioClient, unknown> =>
  usingRealService
    ? StudioClient.layerConfig().pipe(Layer.provide(FetchHttpClient.layer))
    : Reference.layerClient(reference)

export const StudioLive = studioLayer()

export const target = usingRealService ? "the Studio service" : "the embedded reference service"
