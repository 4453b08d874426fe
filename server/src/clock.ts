/** A timer a clock has set: `cancel` stops it (a timer that has run or was cancelled ignores it). */
export interface Timer {
  cancel(): void;
}

/**
 * Where the server reads the time and sets its own timers (the notification hub's heartbeat and
 * flush, an archive build's progress; background jobs are timed by the job engine on the
 * database's clock).
 * Production uses the system's; tests pass a clock they move on (`server/test/clock.ts`) instead
 * of waiting for real time to pass, or use vitest's fake timers (the system clock calls the
 * global timer functions when it sets one).
 */
export interface Clock {
  /** Milliseconds since the epoch, like `Date.now()`. */
  now(): number;
  /** Runs `run` once after `ms`. A pending timer never holds the process open. */
  setTimeout(run: () => void, ms: number): Timer;
  /** Runs `run` every `ms`. A pending timer never holds the process open. */
  setInterval(run: () => void, ms: number): Timer;
}

/** The system's time and timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(run, ms) {
    const timer = setTimeout(run, ms).unref();
    return { cancel: () => clearTimeout(timer) };
  },
  setInterval(run, ms) {
    const timer = setInterval(run, ms).unref();
    return { cancel: () => clearInterval(timer) };
  },
};
