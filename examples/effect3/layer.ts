/**
 * The client every example runs with, on Effect 3 (`FetchHttpClient` from `@effect/platform`): the real
 * service when `STUDIO_API_KEY` is set, otherwise the reference service embedded in memory.
 */
import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
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
