import { connect, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { loadConfig } from '../config.ts';

/** A raw connection that resolves once accepted (its first request answered) or closed unanswered. */
function open(port: number): Promise<{ socket: Socket; answered: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('connect', () => socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n'));
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (data.includes('\r\n\r\n')) resolve({ socket, answered: data.startsWith('HTTP/1.1 200') });
    });
    socket.on('error', () => resolve({ socket, answered: false }));
    socket.on('close', () => resolve({ socket, answered: false }));
  });
}

describe('open connections per client address (issue 21, 12)', async () => {
  const t = await buildTestApp({ maxConnectionsPerAddress: 3 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;

  it('past the cap a connection is closed at once; once one closes, a new one is accepted', async () => {
    const held = [await open(port), await open(port), await open(port)];
    expect(held.map((c) => c.answered)).toEqual([true, true, true]);
    const refused = await open(port);
    expect(refused.answered).toBe(false);
    expect(refused.socket.destroyed).toBe(true);

    held[0]!.socket.destroy();
    await expect
      .poll(async () => {
        const next = await open(port);
        next.socket.destroy();
        return next.answered;
      })
      .toBe(true);
    for (const c of held) c.socket.destroy();
  });

  it('is on by default, and off behind a trusted proxy unless set', () => {
    const env = (more: Record<string, string>) =>
      loadConfig({ DATA_DIR: t.config.dataDir, JWT_SECRET: 'x'.repeat(32), ...more }, '/static');
    expect(env({}).maxConnectionsPerAddress).toBe(256);
    expect(env({ TRUST_PROXY: 'true' }).maxConnectionsPerAddress).toBe(0);
    expect(env({ TRUST_PROXY: 'true', MAX_CONNECTIONS_PER_ADDRESS: '1000' }).maxConnectionsPerAddress).toBe(1000);
    expect(() => env({ MAX_CONNECTIONS_PER_ADDRESS: '-1' })).toThrow(/MAX_CONNECTIONS_PER_ADDRESS/);
  });
});
