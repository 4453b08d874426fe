import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * At most `max` open connections from one client address: a connection past that is closed as
 * soon as it is accepted, before any byte is read, so one host cannot hold the server's open
 * files with idle connections (an attack run held 20,000). Browsers use six per site, and a
 * school behind one address a few hundred, so the default leaves room for them.
 *
 * Behind a reverse proxy (`TRUST_PROXY=true`) every connection comes from the proxy: the cap then
 * applies only when set explicitly, and the proxy caps connections per client (HAProxy: a
 * `stick-table` with `conn_cur` and `tcp-request connection reject`; nginx: `limit_conn`).
 */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
