/**
 * studio-effect: an Effect-native SDK for the Studio service.
 *
 * @since 0.1.0
 */

/**
 * @since 0.1.0
 */
export * as AssistantSchema from "./AssistantSchema.js"

/**
 * @since 0.1.0
 */
export * as Assistants from "./Assistants.js"

/**
 * @since 0.1.0
 */
export * as Batches from "./Batches.js"

/**
 * @since 0.1.0
 */
export * as BatchSchema from "./BatchSchema.js"

/**
 * @since 0.1.0
 */
export * as Chat from "./Chat.js"

/**
 * @since 0.1.0
 */
export * as ChatSchema from "./ChatSchema.js"

/**
 * @since 0.1.0
 */
export * as Library from "./Library.js"

/**
 * @since 0.1.0
 */
export * as LibrarySchema from "./LibrarySchema.js"

/**
 * @since 0.1.0
 */
export * as Maestro from "./Maestro.js"

/**
 * @since 0.1.0
 */
export * as MaestroSchema from "./MaestroSchema.js"

/**
 * @since 0.1.0
 */
export * as Models from "./Models.js"

/**
 * @since 0.1.0
 */
export * as ModelSchema from "./ModelSchema.js"

/**
 * @since 0.1.0
 */
export * as StudioClient from "./StudioClient.js"

/**
 * @since 0.1.0
 */
export * as StudioError from "./StudioError.js"
