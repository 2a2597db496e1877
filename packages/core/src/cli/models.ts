/**
 * What `studio-effect models` says: its commands' descriptions and examples, and how it prints a model.
 *
 * @since 0.2.0
 */
import type { Example } from "./help.js"

/**
 * The descriptions of the `models` command, its subcommand and its options.
 *
 * @since 0.2.0
 * @category constants
 */
export const modelsDescriptions = {
  command: "The models the service offers",
  list: "List the models: id, context length and name, one per line",
  json: "Print the service's answer as JSON"
} as const

/**
 * The examples of `models`' help and `models list`'s.
 *
 * @since 0.2.0
 * @category constants
 */
export const modelsExamples: ReadonlyArray<Example> = [
  { command: "studio-effect models list", description: "The models of the service at STUDIO_BASE_URL" },
  { command: "studio-effect models list --reference --json", description: "The embedded service's, as JSON" }
]

/**
 * A model as `models list` prints it: its id, its context length in tokens, and its name.
 *
 * @since 0.2.0
 * @category formatting
 */
export const modelLine = (model: {
  readonly id: string
  readonly name: string
  readonly context_length: number
}): string => `${model.id}  ${model.context_length}  ${model.name}`
