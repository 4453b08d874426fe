import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from 'node:inspector';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectWhenIdle } from './idleCollector.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('collectWhenIdle', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  async function serve(): Promise<{ server: http.Server; get: () => Promise<void> }> {
    const server = http.createServer((_req, res) => res.end('ok'));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    return { server, get: async () => void (await (await fetch(`http://127.0.0.1:${port}/`)).text()) };
  }

  it('collects once after a quiet spell that follows requests, and not before', async () => {
    const { server, get } = await serve();
    let collections = 0;
    const stop = collectWhenIdle(server, { quietMs: 150, checkEveryMs: 20, collect: () => (collections += 1) });
    await sleep(300);
    expect(collections, 'no request yet: nothing to give back').toBe(0);
    await get();
    await get();
    await sleep(60);
    expect(collections, 'not yet quiet').toBe(0);
    await sleep(250);
    expect(collections).toBe(1);
    await sleep(300);
    expect(collections, 'once per quiet spell').toBe(1);
    await get();
    await sleep(350);
    expect(collections).toBe(2);
    stop();
    await get();
    await sleep(350);
    expect(collections, 'stopped').toBe(2);
  });

  it('does not collect while requests keep coming', async () => {
    const { server, get } = await serve();
    let collections = 0;
    const stop = collectWhenIdle(server, { quietMs: 200, checkEveryMs: 20, collect: () => (collections += 1) });
    for (let i = 0; i < 8; i += 1) {
      await get();
      await sleep(50);
    }
    expect(collections).toBe(0);
    stop();
  });

  it("asks V8 for its memory-reducing collection when no collection is given", async () => {
    const posted: string[] = [];
    const post = vi.spyOn(Session.prototype, 'post').mockImplementation(function (this: Session, method: string) {
      posted.push(method);
    } as unknown as Session['post']);
    const { server, get } = await serve();
    const stop = collectWhenIdle(server, { quietMs: 50, checkEveryMs: 10 });
    await get();
    await sleep(200);
    expect(posted).toEqual(['HeapProfiler.collectGarbage']);
    stop();
    post.mockRestore();
  });
});
