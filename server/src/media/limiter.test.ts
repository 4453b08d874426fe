import { describe, expect, it } from 'vitest';
import { BUSY_MESSAGE, Limiter } from './limiter.ts';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('Limiter', () => {
  it('runs at most `concurrency` tasks, queues `maxWaiting`, refuses the rest with 503, and hands slots on in order', async () => {
    const limiter = new Limiter(2, 2);
    const gates = Array.from({ length: 4 }, deferred);
    const started = Array.from({ length: 4 }, deferred);
    const order: number[] = [];
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        order.push(i);
        started[i]!.resolve();
        await g.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(limiter.load).toEqual({ running: 2, waiting: 2 });
    await expect(limiter.run(async () => 'late')).rejects.toMatchObject({ statusCode: 503, message: BUSY_MESSAGE });
    gates[0]!.resolve();
    await runs[0];
    // The finished task handed its slot to the first waiter, and the second still waits.
    expect(limiter.load).toEqual({ running: 2, waiting: 1 });
    await started[2]!.promise;
    expect(order).toEqual([0, 1, 2]);
    for (const g of gates) g.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees its slot when a task fails', async () => {
    const limiter = new Limiter(1, 0);
    await expect(limiter.run(async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await limiter.run(async () => 'next')).toBe('next');
  });
});
