/**
 * The reference service embedded in memory, with the key and address a client gives it: what
 * `layerClient` and the client's no-key fallback (`StudioClient.layerConfig({ withoutKey: "reference" })`)
 * run on. It imports no module of the client, so that the client can load it lazily without a circle.
 */
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import { make as makeApp, type ReferenceOptions } from "./app.js"
import { fromApp } from "./inMemory.js"

/** The API key a client of the embedded service sends when none is given. */
export const apiKey = "reference-key"

/** The address a client of the embedded service is given: its requests never leave the process. */
export const baseUrl = "http://localhost"

/** An `HttpClient` that calls a fresh reference service in memory, without a socket. */
export const transport = (options: ReferenceOptions = {}): Layer.Layer<HttpClient.HttpClient> =>
  Layer.effect(HttpClient.HttpClient, Effect.map(makeApp(options), fromApp))
