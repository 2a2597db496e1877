/**
 * This SDK over `NodeHttpClient.layerUndici`.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { makeClient } from "./studio.js"

export const client = makeClient(NodeHttpClient.layerUndici)
