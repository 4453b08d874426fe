import type { Clock, Timer } from '../src/clock.ts';

/** A timer of a `TestClock`: when it is due in the clock's time, and its real timer meanwhile. */
interface Pending {
  due: number;
  /** The period of an interval; `null` for a timeout. */
  every: number | null;
  run: () => void;
  real: NodeJS.Timeout | undefined;
}

/**
 * The system's time moved on by what the test has advanced it: time passes without a wait. Its
 * timers run when the clock's time reaches them, whether real time passed or the test advanced
 * it (`advance` runs those then due at once, in the order they are due).
 */
export class TestClock implements Clock {
  private offset = 0;
  private readonly timers = new Set<Pending>();
  /** With `frozen`, the time the clock stands at until the test advances it; else real time runs on. */
  private readonly frozenAt: number | null;

  /**
   * @param options.frozen the clock moves only when the test advances it, and its timers run only
   * then: for tests that count what happens just before a timer is due, which a busy machine's
   * real milliseconds between two lines would otherwise make due.
   */
  constructor(options: { frozen?: boolean } = {}) {
    this.frozenAt = options.frozen ? Date.now() : null;
  }

  now(): number {
    return (this.frozenAt ?? Date.now()) + this.offset;
  }

  setTimeout(run: () => void, ms: number): Timer {
    return this.add({ due: this.now() + ms, every: null, run, real: undefined });
  }

  setInterval(run: () => void, ms: number): Timer {
    return this.add({ due: this.now() + ms, every: ms, run, real: undefined });
  }

  /** How many timers are set and not yet run or cancelled (an interval counts until cancelled). */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves the clock `ms` into the future and runs every timer due by then (an interval once). */
  advance(ms: number): void {
    this.offset += ms;
    const due = [...this.timers].filter((t) => t.due <= this.now()).sort((a, b) => a.due - b.due);
    for (const timer of this.timers) if (!due.includes(timer)) this.arm(timer);
    for (const timer of due) if (this.timers.has(timer)) this.fire(timer);
  }

  private add(timer: Pending): Timer {
    this.timers.add(timer);
    this.arm(timer);
    return {
      cancel: () => {
        clearTimeout(timer.real);
        this.timers.delete(timer);
      },
    };
  }

  /** Sets the real timer that runs `timer` when the clock's time reaches it. */
  private arm(timer: Pending): void {
    clearTimeout(timer.real);
    if (this.frozenAt !== null) return;
    timer.real = setTimeout(() => this.fire(timer), Math.max(0, timer.due - this.now())).unref();
  }

  private fire(timer: Pending): void {
    clearTimeout(timer.real);
    if (timer.every === null) this.timers.delete(timer);
    else {
      timer.due = this.now() + timer.every;
      this.arm(timer);
    }
    timer.run();
  }
}
