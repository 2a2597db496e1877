/**
 * The redirect policy, the same on every transport: redirects are not followed. A 3xx answer becomes an
 * `ApiError` naming its status and `Location`, so the API key is never sent to another address and a POST
 * is never replayed as a GET. `fetch` follows redirects unless told otherwise, so every request it sends
 * for this client says `redirect: "manual"`; undici and the in-memory reference service never follow.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/** The transport, with `fetch` told not to follow redirects (other `RequestInit` options are kept). */
export const withoutRedirects = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.transform(
    client,
    (effect) =>
      Effect.flatMap(Effect.serviceOption(FetchHttpClient.RequestInit), (init) =>
        Effect.provideService(effect, FetchHttpClient.RequestInit, {
          ...Option.getOrUndefined(init),
          redirect: "manual"
        }))
  )
