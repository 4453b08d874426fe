import type { Clock } from '../src/clock.ts';

/** The system's time moved on by what the test has advanced it: time passes without a wait. */
export class TestClock implements Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  /** Moves the clock `ms` into the future. */
  advance(ms: number): void {
    this.offset += ms;
  }
}
