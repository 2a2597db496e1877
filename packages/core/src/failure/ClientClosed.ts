/**
 * The Promise API's error for a call that `close()` ended: one still in flight when the client was closed
 * (it settles at once, its connection released), or one made after.
 *
 * @since 1.0.0
 */
export class ClientClosed extends Error {
  readonly _tag = "ClientClosed"

  constructor(
    /** Whether the call was in flight when the client was closed, rather than made after. */
    readonly inFlight: boolean
  ) {
    super(
      inFlight
        ? "The client was closed while this call was in flight: close() ends every call and stream it runs"
        : "The client is closed: close() was called before this call; make a new client to call the service again"
    )
    this.name = "ClientClosed"
  }
}
