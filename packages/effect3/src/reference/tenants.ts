/**
 * What each tenant of the reference service holds: its own assistants, runs, library of files and batches.
 * With accepted keys configured every key is a tenant; without, every caller shares one (see
 * `studio-effect-core/reference/tenants`). A new kind of state is one more field of `Tenant`.
 */
import type * as Duration from "effect/Duration"
import type { BatchTiming } from "studio-effect-core/reference/batches"
import { makeByteBudget } from "studio-effect-core/reference/byteBudget"
import type { Ids } from "studio-effect-core/reference/ids"
import type { RunFailure } from "studio-effect-core/reference/runs"
import { type StoreLimitOptions, storeLimits } from "studio-effect-core/reference/storeLimits"
import { makeTenants, type Tenants } from "studio-effect-core/reference/tenants"
import { makeAssistantStore } from "./assistants.js"
import { makeBatchStore } from "./batches.js"
import { makeLibraryStore } from "./library.js"
import type { Model } from "./model.js"
import { makeRunStore } from "./runs.js"

/** The state of one tenant. */
export interface Tenant {
  readonly assistants: ReturnType<typeof makeAssistantStore>
  readonly runs: ReturnType<typeof makeRunStore>
  /** The files its runs' `file_search` searches. */
  readonly library: ReturnType<typeof makeLibraryStore>
  /** Its batches, each line run by the model. */
  readonly batches: ReturnType<typeof makeBatchStore>
}

/** How the stores of every tenant are made, and their limits (see `storeLimits`). */
export interface TenantOptions extends StoreLimitOptions {
  readonly separate: boolean
  readonly model: Model
  readonly seed: number
  readonly ids: Ids
  readonly stepDuration: Duration.Duration
  readonly failRun?: RunFailure | undefined
  /** Models a batch's chat requests may name besides the interface's own. */
  readonly extraModels: ReadonlyArray<string>
  readonly maxJsonDepth: number
  readonly batchTiming: BatchTiming
}

/**
 * The tenants of one service, each with stores made on its first request; their libraries share one budget
 * of bytes, and a forgotten tenant's files give theirs back.
 */
export const make = (options: TenantOptions): Tenants<Tenant> => {
  const limits = storeLimits(options)
  const libraryBudget = makeByteBudget(limits.maxTotalLibraryBytes)
  return makeTenants({
    separate: options.separate,
    maxTenants: limits.maxTenants,
    forget: (tenant) => tenant.library.clear(),
    make: () => {
      const library = makeLibraryStore({
        ids: options.ids,
        limits: limits.library,
        processingDuration: limits.fileProcessingDuration,
        budget: libraryBudget
      })
      return {
        library,
        runs: makeRunStore({
          model: options.model,
          seed: options.seed,
          ids: options.ids,
          library,
          stepDuration: options.stepDuration,
          failRun: options.failRun,
          ...limits.runs
        }),
        assistants: makeAssistantStore(options.ids, limits.assistants),
        batches: makeBatchStore({
          model: options.model,
          seed: options.seed,
          ids: options.ids,
          extraModels: options.extraModels,
          maxJsonDepth: options.maxJsonDepth,
          limits: limits.batches,
          timing: options.batchTiming
        })
      }
    }
  })
}
