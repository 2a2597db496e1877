/**
 * `studio-effect/workflow`: durable runs on Effect's workflow engine (`effect/workflow`). A run created
 * inside a workflow is created once per execution and polled with durable sleeps, so a restart neither
 * loses it nor creates a second one; a batch is created once and waited on the same way; a durable tool loop
 * creates each completion and runs each tool call once.
 *
 * @since 1.1.0
 */

/**
 * @since 1.1.0
 */
export * as DurableMaestro from "./DurableMaestro.js"

/**
 * @since 1.1.0
 */
export * as DurableAssistants from "./DurableAssistants.js"

/**
 * @since 1.1.0
 */
export * as DurableChat from "./DurableChat.js"

/**
 * @since 1.1.0
 */
export * as DurableBatches from "./DurableBatches.js"
