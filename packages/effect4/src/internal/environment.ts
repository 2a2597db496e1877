/**
 * The client's settings read from the environment with `Config`: each a `STUDIO_` name, then its alias
 * (`studio-effect-core/wire/environment`), the first one set and not blank winning.
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { apiKeyVariables, baseUrlVariables } from "studio-effect-core/wire/environment"

/** The value of the first config that is set to a value `isSet` takes; a present but invalid one fails. */
const firstSet = <A>(configs: ReadonlyArray<Config.Config<A>>, isSet: (value: A) => boolean) =>
  Effect.gen(function*() {
    for (const config of configs) {
      const value = Option.filter(yield* Config.option(config), isSet)
      if (Option.isSome(value)) return value.value
    }
    return undefined
  })

/** The API key: the given config, or `STUDIO_API_KEY` then `AI21_API_KEY`; `undefined` when none is set. */
export const apiKeyOf = (config: Config.Config<Redacted.Redacted> | undefined) =>
  firstSet(
    config === undefined ? apiKeyVariables.map((name) => Config.Redacted(name)) : [config],
    (key) => Redacted.value(key).trim() !== ""
  )

/** The base URL: the given config, or `STUDIO_BASE_URL` then `AI21_API_HOST`; `undefined` when none is set. */
export const baseUrlOf = (config: Config.Config<string> | undefined) =>
  firstSet(
    config === undefined ? baseUrlVariables.map((name) => Config.String(name)) : [config],
    (url) => url.trim() !== ""
  )
