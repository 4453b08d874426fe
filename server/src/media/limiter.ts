import { HttpError } from '../errors.ts';

export const BUSY_MESSAGE = 'The server is busy making previews of other uploads. Please try again in a minute.';

/**
 * Runs at most `concurrency` tasks at once; up to `maxWaiting` more wait their turn, and any
 * beyond are refused with 503 — so a burst of uploads queues for the CPU instead of taking it all.
 */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running += 1;
    else if (this.waiting.length >= this.maxWaiting) throw new HttpError(503, 'busy', BUSY_MESSAGE);
    // A finished task hands its slot to the next waiter directly (`running` stays the same).
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
