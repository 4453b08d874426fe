/** Limits on slow clients, so that none can hold the server's connections. */
export interface Timeouts {
  /** Headers must arrive within this. */
  headersMs: number;
  /** A request body that is not an upload must arrive whole within this (then 408 and the connection closes). */
  bodyMs: number;
  /** A connection (an upload too) may stay silent this long. */
  idleMs: number;
  /** No request, however large its upload, may take longer than this. */
  requestMs: number;
  /**
   * An idle kept-alive connection is closed after this. Longer than clients keep theirs (Node's
   * fetch 4 s, OkHttp 5 min but it retries a stale connection): a shorter server keep-alive makes a
   * client's next request race the server's close and fail with a reset or broken pipe.
   */
  keepAliveMs: number;
}

/** Open connections from one address unless `MAX_CONNECTIONS_PER_ADDRESS` says otherwise. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;

export const DEFAULT_TIMEOUTS: Timeouts = {
  headersMs: 20_000,
  bodyMs: 30_000,
  idleMs: 60_000,
  requestMs: 2 * 3_600_000,
  keepAliveMs: 55_000,
};
