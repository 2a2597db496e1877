/**
 * The Effect floor over `FetchHttpClient.layer`.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { makeClient } from "./effect.js"

export const client = makeClient(FetchHttpClient.layer)
