import { setTimeout as pause } from 'node:timers/promises';

export interface UntilOptions {
  /** How long to look before failing, in ms (default 5000). */
  timeout?: number;
  /** What is waited for, in the error when it does not come. */
  what?: string;
  /** How often to look, in ms (default 20). */
  every?: number;
}

/**
 * Waits on a condition of the system under test: looks at `probe` until it answers a value that
 * is not `false`, `null` or `undefined`, and returns that value; fails after `timeout`. The one
 * way a server test waits for something that happens in the background (a stream's count, a
 * job's state, a connection), where no event or promise says it happened.
 */
export async function until<T>(
  probe: () => T | Promise<T>,
  { timeout = 5000, what = 'the condition', every = 20 }: UntilOptions = {},
): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== false && value !== null && value !== undefined) return value as Exclude<T, false | null | undefined>;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeout} ms`);
    await pause(every);
  }
}
