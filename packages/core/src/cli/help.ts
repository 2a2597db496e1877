/**
 * What the root help of `studio-effect` says, and the shape of an example shown in a command's help.
 *
 * @since 0.2.0
 */
import { exitCodesDescription } from "./exitCodes.js"

/**
 * An example in a command's help: a command line, and what it does.
 *
 * @since 0.2.0
 * @category models
 */
export interface Example {
  readonly command: string
  readonly description: string
}

/**
 * The description of the root command: what it does, and its exit codes.
 *
 * @since 0.2.0
 * @category constants
 */
export const rootDescription = "The Studio service from the terminal: chat, orchestration runs, assistants, " +
  "the library of files and the models, against the service (STUDIO_API_KEY, STUDIO_BASE_URL) or the embedded " +
  `reference service (--reference); and serve the reference service over HTTP. ${exitCodesDescription}`

/**
 * The examples of the root help.
 *
 * @since 0.2.0
 * @category constants
 */
export const rootExamples: ReadonlyArray<Example> = [
  { command: "studio-effect chat --reference \"Hello\"", description: "Ask the embedded reference service" },
  { command: "studio-effect run -r \"list=Answer as a numbered list\" \"Write two tips\"", description: "A run" },
  { command: "studio-effect serve --port 0", description: "Serve the reference service on a free port" }
]
