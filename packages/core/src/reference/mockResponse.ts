/**
 * How the reference service honours a chat request's `mock_response`: the delays it waits, on the
 * service's clock, each bounded so that no request can hold a connection for long.
 */
import type { MockResponseConfig } from "../wire/chat.js"

/** The longest wait before a mock answer, whatever the request asks: 30 seconds. */
export const maxMockResponseDelay = 30_000

/** The longest wait between the events of a mock stream, whatever the request asks: 1 second. */
export const maxMockDeltaDelay = 1_000

/** The delays of a mock answer, in milliseconds: before it, and between the events of its stream. */
export interface MockDelays {
  readonly response: number
  readonly betweenEvents: number
}

/**
 * The delays `mock_response` asks for, with the real service's defaults (1 s and 0.1 s) for those it leaves
 * out, each cut to its bound; `undefined` for a request that asks for no mock answer.
 */
export const mockDelays = (mock: MockResponseConfig | null | undefined): MockDelays | undefined =>
  mock === undefined || mock === null ? undefined : {
    response: Math.min(maxMockResponseDelay, (mock.response_delay_seconds ?? 1) * 1000),
    betweenEvents: Math.min(maxMockDeltaDelay, (mock.stream_response_delay_between_deltas_seconds ?? 0.1) * 1000)
  }
