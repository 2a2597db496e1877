/**
 * The model behind the reference service: a deterministic, seedable built-in model that works only from
 * the conversation, and the pluggable `Model` type that lets a test make the service say what it needs.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as CoreModel from "studio-effect-core/reference/builtInModel"

export {
  /**
   * The built-in model: deterministic for a seed, it answers from the conversation alone (restating the
   * request, calling the best matching tool, quoting the closest document sentence) and never pretends to
   * know facts.
   *
   * @since 0.1.0
   * @category models
   */
  builtIn,
  /**
   * How many tokens a text counts for.
   *
   * @since 0.1.0
   * @category tokens
   */
  countTokens,
  /**
   * What the service tells the model besides the request.
   *
   * @since 0.1.0
   * @category models
   */
  type ModelContext,
  /**
   * A chat request as the model sees it, after validation.
   *
   * @since 0.1.0
   * @category models
   */
  type ModelRequest,
  /**
   * A tool call the model makes; `arguments` is a value (sent as its JSON) or a JSON string.
   *
   * @since 0.1.0
   * @category models
   */
  type ModelToolCall,
  /**
   * The model's answer: text, tool calls, or both. A plain string is text.
   *
   * @since 0.1.0
   * @category models
   */
  type Reply,
  /**
   * Splits text into the tokens the service counts and streams: each word with the whitespace before it.
   * Joining the tokens gives back the text.
   *
   * @since 0.1.0
   * @category tokens
   */
  tokenize
} from "studio-effect-core/reference/builtInModel"

/**
 * A model: a function from a request to a reply, given at once or by an effect. The service applies
 * `stop`, `max_tokens` and streaming to whatever it returns, so a scripted answer is still cut and counted
 * as the parameters say.
 *
 * @since 0.1.0
 * @category models
 */
export type Model = (
  request: CoreModel.ModelRequest,
  context: CoreModel.ModelContext
) => CoreModel.Reply | Effect.Effect<CoreModel.Reply>

/**
 * A model that gives `replies` in order, one per generated choice (or run), then answers with `fallback`
 * (the built-in model unless given). Each service made with a script keeps its own place in it.
 *
 * @since 0.1.0
 * @category models
 */
export const script = (replies: ReadonlyArray<CoreModel.Reply>, fallback: Model = CoreModel.builtIn): Model =>
  CoreModel.script(replies, fallback)

/** Runs a model, whether it answers directly or with an effect. */
export const runModel = (
  model: Model,
  request: CoreModel.ModelRequest,
  context: CoreModel.ModelContext
): Effect.Effect<CoreModel.Reply> =>
  Effect.suspend(() => {
    const reply = model(request, context)
    return Effect.isEffect(reply) ? reply : Effect.succeed(reply)
  })
