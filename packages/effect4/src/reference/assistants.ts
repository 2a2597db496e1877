/**
 * The assistant store of the reference service on Effect: the store of `studio-effect-core/reference/
 * assistants`, with times from Effect's clock, writes under one lock, and a refused write as a typed error.
 */
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Semaphore from "effect/Semaphore"
import * as Assistants from "studio-effect-core/reference/assistants"
import type { Ids } from "studio-effect-core/reference/ids"
import type { CreateAssistantRequest, ModifyAssistantRequest } from "studio-effect-core/wire/assistant"

type Stored = Assistants.StoredAssistant

/**
 * An assistant refused because its JSON would be longer than the store keeps.
 */
export class AssistantTooLarge extends Data.TaggedError("AssistantTooLarge")<{
  readonly size: number
  readonly limit: number
}> {
  override get message(): string {
    return Assistants.assistantTooLargeMessage(this)
  }
}

/** The stored assistant of a write, or its refusal as an error. */
const written = (write: Assistants.AssistantWrite): Effect.Effect<Stored, AssistantTooLarge> =>
  write._tag === "Stored"
    ? Effect.succeed(write.assistant)
    : Effect.fail(new AssistantTooLarge({ size: write.size, limit: write.limit }))

/**
 * The assistants of one service (see `Assistants.makeAssistantStore`). Writes take one lock, so concurrent
 * updates of one assistant each see the previous one and none is lost; reads take none.
 */
export const makeAssistantStore = (
  ids: Ids,
  limits: Assistants.AssistantStoreLimits = Assistants.defaultAssistantStoreLimits
) => {
  const store = Assistants.makeAssistantStore(ids, limits)
  const lock = Semaphore.makeUnsafe(1)

  const create = (request: CreateAssistantRequest) =>
    Effect.flatMap(
      Clock.currentTimeMillis,
      (now) => Effect.suspend(() => written(store.create(request, now))).pipe(lock.withPermits(1))
    )

  const retrieve = (id: string): Effect.Effect<Stored | undefined> => Effect.sync(() => store.retrieve(id))

  /** The JSON of `{"results": [...]}`, in creation order: at most `maxAssistants` of bounded size. */
  const listJson = (workspaceIds: ReadonlyArray<string>) => Effect.sync(() => store.listJson(workspaceIds))

  /**
   * Read-modify-write of one assistant, atomically: `f` gets the current value and returns the next one,
   * and no other change of the store runs in between. `undefined` when there is no such assistant.
   */
  const modify = <E, R>(
    id: string,
    f: (current: Stored) => Effect.Effect<Stored, E, R>
  ): Effect.Effect<Stored | undefined, E | AssistantTooLarge, R> =>
    Effect.gen(function*() {
      const current = store.retrieve(id)
      if (current === undefined) return undefined
      const next = yield* f(current)
      const write = store.replace(id, next)
      return write === undefined ? undefined : yield* written(write)
    }).pipe(lock.withPermits(1))

  const update = (id: string, request: ModifyAssistantRequest) =>
    modify(id, (current) => Effect.map(Clock.currentTimeMillis, (now) => Assistants.updated(current, request, now)))

  const remove = (id: string) => Effect.sync(() => store.remove(id)).pipe(lock.withPermits(1))

  return { create, retrieve, listJson, modify, update, remove }
}
