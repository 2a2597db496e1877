/**
 * studio-effect/undici: an `HttpClient` over `undici` for Node, the fastest transport for the client.
 *
 * @since 1.1.0
 */

/**
 * @since 1.1.0
 */
export * as UndiciHttpClient from "./UndiciHttpClient.js"
