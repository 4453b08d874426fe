/**
 * Where the server reads the time. Production reads the system's; tests pass a clock they move
 * on (`server/test/clock.ts`) instead of waiting for real time to pass.
 */
export interface Clock {
  /** Milliseconds since the epoch, like `Date.now()`. */
  now(): number;
}

/** The system's time. */
export const systemClock: Clock = { now: () => Date.now() };
