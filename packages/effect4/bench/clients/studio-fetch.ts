/**
 * This SDK over `FetchHttpClient.layer` (Node's built-in `fetch`).
 */
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { makeClient } from "./studio.js"

export const client = makeClient(FetchHttpClient.layer)
