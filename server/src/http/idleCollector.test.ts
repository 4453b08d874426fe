import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from 'node:inspector';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectWhenIdle } from './idleCollector.ts';

describe('collectWhenIdle', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  /**
   * A server whose `get` resolves once the server side of the exchange has closed too (the
   * collector counts that end as activity), so that the tests' clock moves only after it.
   */
  async function serve(): Promise<{ server: http.Server; get: () => Promise<void> }> {
    let closed: (() => void) | undefined;
    const server = http.createServer((_req, res) => {
      res.once('close', () => closed?.());
      res.end('ok');
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    return {
      server,
      get: async () => {
        const done = new Promise<void>((resolve) => (closed = resolve));
        await (await fetch(`http://127.0.0.1:${port}/`)).text();
        await done;
      },
    };
  }

  /** The collector's clock and its checks run on fake time; the HTTP exchanges stay real. */
  function fakeClock(): (ms: number) => void {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    return (ms) => vi.advanceTimersByTime(ms);
  }

  it('collects once after a quiet spell that follows requests, and not before', async () => {
    const { server, get } = await serve();
    const wait = fakeClock();
    let collections = 0;
    const stop = collectWhenIdle(server, { quietMs: 150, checkEveryMs: 20, collect: () => (collections += 1) });
    wait(300);
    expect(collections, 'no request yet: nothing to give back').toBe(0);
    await get();
    await get();
    wait(60);
    expect(collections, 'not yet quiet').toBe(0);
    wait(250);
    expect(collections).toBe(1);
    wait(300);
    expect(collections, 'once per quiet spell').toBe(1);
    await get();
    wait(350);
    expect(collections).toBe(2);
    stop();
    await get();
    wait(350);
    expect(collections, 'stopped').toBe(2);
  });

  it('does not collect while requests keep coming', async () => {
    const { server, get } = await serve();
    const wait = fakeClock();
    let collections = 0;
    const stop = collectWhenIdle(server, { quietMs: 200, checkEveryMs: 20, collect: () => (collections += 1) });
    for (let i = 0; i < 8; i += 1) {
      await get();
      wait(50);
    }
    expect(collections).toBe(0);
    wait(200);
    expect(collections, 'quiet at last').toBe(1);
    stop();
  });

  it("asks V8 for its memory-reducing collection when no collection is given", async () => {
    const posted: string[] = [];
    const post = vi.spyOn(Session.prototype, 'post').mockImplementation(function (this: Session, method: string) {
      posted.push(method);
    } as unknown as Session['post']);
    const { server, get } = await serve();
    const wait = fakeClock();
    const stop = collectWhenIdle(server, { quietMs: 50, checkEveryMs: 10 });
    await get();
    wait(200);
    expect(posted).toEqual(['HeapProfiler.collectGarbage']);
    stop();
    post.mockRestore();
  });
});
