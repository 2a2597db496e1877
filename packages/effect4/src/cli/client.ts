/**
 * Which service a command talks to: the Studio service (STUDIO_API_KEY, STUDIO_BASE_URL), or with
 * `--reference` the reference service embedded in memory.
 */
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Layer from "effect/Layer"
import {
  isNotFound,
  missingKeyMessage,
  referenceDescription,
  unknownInFreshMessage
} from "studio-effect-core/cli/client"
import { exitCodes } from "studio-effect-core/cli/exitCodes"
import { apiKeyOf } from "../internal/environment.js"
import { CliFailure } from "./failure.js"
import * as Modules from "./modules.js"

/**
 * `--reference`: use the embedded reference service.
 *
 * @since 0.1.0
 * @category options
 */
export const reference = Flag.Boolean("reference").pipe(
  Flag.withDefault(false),
  Flag.withDescription(referenceDescription)
)

/**
 * The client of the Studio service, from STUDIO_API_KEY and STUDIO_BASE_URL (or their aliases AI21_API_KEY and
 * AI21_API_HOST) over `fetch`. A missing key says
 * how to set one (and `--reference` only to a command that takes it); a key or base URL the client refuses
 * fails with the client's error.
 */
const serviceLayer = (takesReference: boolean) =>
  Layer.unwrap(
    Effect.gen(function*() {
      if ((yield* apiKeyOf(undefined).pipe(Effect.orDie)) === undefined) {
        return yield* new CliFailure({ message: missingKeyMessage(takesReference), exitCode: exitCodes.auth })
      }
      const StudioClient = yield* Modules.StudioClient
      return StudioClient.layerConfig().pipe(Layer.provide(FetchHttpClient.layer))
    })
  )

/**
 * The client: in memory with `--reference`, otherwise the Studio service's (STUDIO_API_KEY, STUDIO_BASE_URL).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (useReference: boolean) =>
  useReference
    ? Layer.unwrap(Effect.map(Modules.Reference, (Reference) => Reference.layerClient()))
    : serviceLayer(true)

/**
 * Provides the Studio service's client to the effect of a command that takes no `--reference` (it reads runs
 * or assistants that a fresh embedded service would not have).
 *
 * @since 0.2.0
 * @category layers
 */
export const provideService = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.provide(self, serviceLayer(false))

/**
 * Provides the client to a command's effect. With `--reference`, an unknown id is explained: the embedded
 * service is new for each command, so an id from another command is not in it.
 *
 * @since 0.2.0
 * @category layers
 */
export const provide = (useReference: boolean) => <A, E, R>(self: Effect.Effect<A, E, R>) =>
  (useReference ? Effect.mapError(self, (error): E | CliFailure => isNotFound(error) ? unknownInFresh : error) : self)
    .pipe(Effect.provide(layer(useReference)))

const unknownInFresh = new CliFailure({ message: unknownInFreshMessage })
