/**
 * What each tenant of the reference service holds: its own assistants, runs and library of files. With accepted keys
 * configured every key is a tenant; without, every caller shares one (see
 * `studio-effect-core/reference/tenants`). A new kind of state is one more field of `Tenant`.
 */
import type * as Duration from "effect/Duration"
import { defaultAssistantStoreLimits } from "studio-effect-core/reference/assistants"
import { makeByteBudget } from "studio-effect-core/reference/byteBudget"
import type { Ids } from "studio-effect-core/reference/ids"
import {
  defaultLibraryLimits,
  defaultMaxTotalLibraryBytes,
  defaultProcessingDuration
} from "studio-effect-core/reference/library/library"
import { defaultRunStoreLimits, type RunFailure } from "studio-effect-core/reference/runs"
import { defaultMaxTenants, makeTenants, type Tenants } from "studio-effect-core/reference/tenants"
import { makeAssistantStore } from "./assistants.js"
import { makeLibraryStore } from "./library.js"
import type { Model } from "./model.js"
import { makeRunStore } from "./runs.js"

/** The state of one tenant. */
export interface Tenant {
  readonly assistants: ReturnType<typeof makeAssistantStore>
  readonly runs: ReturnType<typeof makeRunStore>
  /** The files its runs' `file_search` searches. */
  readonly library: ReturnType<typeof makeLibraryStore>
}

/** How the stores of every tenant are made, and how many tenants are kept. */
export interface TenantOptions {
  readonly separate: boolean
  readonly maxTenants?: number | undefined
  readonly model: Model
  readonly seed: number
  readonly ids: Ids
  readonly stepDuration: Duration.Duration
  readonly failRun?: RunFailure | undefined
  readonly maxRuns?: number | undefined
  readonly maxRunsSize?: number | undefined
  readonly maxAssistants?: number | undefined
  readonly maxAssistantSize?: number | undefined
  readonly maxFiles?: number | undefined
  readonly maxLibraryBytes?: number | undefined
  readonly maxFileBytes?: number | undefined
  readonly maxSearchAnswerBytes?: number | undefined
  /** The bytes of every tenant's library together (files and their index). */
  readonly maxTotalLibraryBytes?: number | undefined
  /** How long a file is `PROCESSING`, in milliseconds. */
  readonly fileProcessingDuration?: number | undefined
}

/**
 * The tenants of one service, each with stores made on its first request; their libraries share one budget
 * of bytes, and a forgotten tenant's files give theirs back.
 */
export const make = (options: TenantOptions): Tenants<Tenant> => {
  const libraryBudget = makeByteBudget(options.maxTotalLibraryBytes ?? defaultMaxTotalLibraryBytes)
  return makeTenants({
    separate: options.separate,
    maxTenants: options.maxTenants ?? defaultMaxTenants,
    forget: (tenant) => tenant.library.clear(),
    make: () => {
      const library = makeLibraryStore({
        ids: options.ids,
        limits: {
          maxFiles: options.maxFiles ?? defaultLibraryLimits.maxFiles,
          maxLibraryBytes: options.maxLibraryBytes ?? defaultLibraryLimits.maxLibraryBytes,
          maxFileBytes: options.maxFileBytes ?? defaultLibraryLimits.maxFileBytes,
          maxSearchAnswerBytes: options.maxSearchAnswerBytes ?? defaultLibraryLimits.maxSearchAnswerBytes
        },
        processingDuration: options.fileProcessingDuration ?? defaultProcessingDuration,
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
          maxRuns: options.maxRuns ?? defaultRunStoreLimits.maxRuns,
          maxRunsSize: options.maxRunsSize ?? defaultRunStoreLimits.maxRunsSize
        }),
        assistants: makeAssistantStore(options.ids, {
          maxAssistants: options.maxAssistants ?? defaultAssistantStoreLimits.maxAssistants,
          maxAssistantSize: options.maxAssistantSize ?? defaultAssistantStoreLimits.maxAssistantSize
        })
      }
    }
  })
}
