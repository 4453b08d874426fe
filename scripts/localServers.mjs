// What the test set-up's servers on loopback (radosgw, redis-server) share: finding their
// programs and a free port.
import { accessSync, constants } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Whether `name` is an executable in a folder of PATH (looked up without starting a shell). */
export function onPath(name) {
  return (process.env.PATH ?? '').split(path.delimiter).some((folder) => {
    try {
      accessSync(path.join(folder, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** A free TCP port on the loopback interface (free now; the server binds it a moment later). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
