/**
 * The redirect policy, the same on every transport: redirects are not followed. A 3xx answer becomes an
 * `ApiError` naming its status and `Location`, so the API key is never sent to another address and a POST
 * is never replayed as a GET. `fetch` follows redirects unless told otherwise, so every request it sends
 * for this client says `redirect: "manual"`; `NodeHttpClient`'s undici transport and the in-memory
 * reference service never follow, and the client never adds `HttpClient.followRedirects`.
 */
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as Option from "effect/Option"
import { redactUrl } from "studio-effect-core/url/redactUrl"

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

/** Whether a status is a redirect (or `fetch`'s opaque redirect, status 0 in a browser). */
export const isRedirect = (status: number): boolean => (status >= 300 && status < 400) || status === 0

/** What a redirect's `ApiError` says: where it pointed (the message adds what to do). */
export const redirectDetail = (status: number, location: string | undefined): string =>
  `Redirect to ${
    location === undefined ? "(no Location)" : redactUrl(location)
  } not followed (a ${status} is never followed, so the API key ` +
  "is never sent to another address)"
