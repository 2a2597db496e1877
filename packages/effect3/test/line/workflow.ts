/**
 * The workflow engine of this line (`@effect/workflow`), for the tests of `studio-effect/workflow`.
 */
export * as WorkflowEngine from "@effect/workflow/WorkflowEngine"
