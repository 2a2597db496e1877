/**
 * This SDK over its own transport, `UndiciHttpClient.layer` from `studio-effect/undici`.
 */
import { UndiciHttpClient } from "../../src/undici/index.js"
import { makeClient } from "./studio.js"

export const client = makeClient(UndiciHttpClient.layer)
