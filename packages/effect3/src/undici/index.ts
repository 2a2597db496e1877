/**
 * studio-effect/undici: an `HttpClient` over `undici` for Node, the fastest transport for the client.
 *
 * @since 0.1.0
 */

/**
 * @since 0.1.0
 */
export * as UndiciHttpClient from "./UndiciHttpClient.js"
