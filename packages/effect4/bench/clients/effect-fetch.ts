/**
 * The Effect 4 floor over `FetchHttpClient.layer`.
 */
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { makeClient } from "./effect.js"

export const client = makeClient(FetchHttpClient.layer)
