/**
 * The Effect 4 floor over `NodeHttpClient.layerUndici`.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { makeClient } from "./effect.js"

export const client = makeClient(NodeHttpClient.layerUndici)
