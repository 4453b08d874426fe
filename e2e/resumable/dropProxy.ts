import net from 'node:net';

/** One connection's story: when it opened, and when and with what request line the browser's first bytes went through. */
interface Connection {
  openedAt: number;
  firstDataAt: number | null;
  requestLine: string;
}

/**
 * A loopback TCP proxy in front of a server that the test can cut: `cut(ms)` breaks every open
 * connection (a reset, as a dropped Wi-Fi looks to the browser) and resets new ones for `ms`;
 * `hold()` stops passing the browser's bytes on (a stalled connection) until `release()`.
 * It counts the bytes the browser sent through it.
 */
export class DropProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly connections: Connection[] = [];
  private down = false;
  private held = false;
  /** Bytes a second passed on from the browser, or no limit. */
  private limit: number | null = null;
  private readonly waiting: (() => void)[] = [];
  /** Bytes the browser sent through the proxy (to the server). */
  clientBytes = 0;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => this.accept(client));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  private accept(client: net.Socket): void {
    if (this.down) {
      client.resetAndDestroy();
      return;
    }
    const connection: Connection = { openedAt: Date.now(), firstDataAt: null, requestLine: '' };
    this.connections.push(connection);
    const upstream = net.connect(this.target);
    this.sockets.add(client).add(upstream);
    const forget = () => {
      this.sockets.delete(client);
      this.sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', forget).on('close', forget);
    upstream.on('error', forget).on('close', forget);
    client.on('data', (data: Buffer) => {
      if (connection.firstDataAt === null) {
        connection.firstDataAt = Date.now();
        connection.requestLine = data.subarray(0, 200).toString('latin1').split('\r\n')[0]!;
      }
      this.clientBytes += data.length;
      if (!upstream.write(data)) client.pause();
      this.checkWaiting();
      if (this.held) client.pause();
      else if (this.limit !== null) {
        client.pause();
        setTimeout(
          () => {
            if (!this.held && !client.destroyed) client.resume();
          },
          (data.length * 1000) / this.limit,
        );
      }
    });
    upstream.on('drain', () => {
      if (!this.held) client.resume();
    });
    upstream.on('data', (data: Buffer) => {
      if (!client.write(data)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
  }

  /** Breaks every connection now and refuses new ones for `ms`; resolves when it accepts again (that time). */
  async cut(ms: number): Promise<number> {
    this.down = true;
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
    await new Promise((resolve) => setTimeout(resolve, ms));
    this.down = false;
    return Date.now();
  }

  /** When the browser first sent a request matching `line` on a connection opened after `since` (its resume). */
  async firstRequestAfter(since: number, line: RegExp, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const first = this.connections.find((c) => c.openedAt >= since && line.test(c.requestLine));
      if (first) return first.firstDataAt!;
      if (Date.now() > deadline) throw new Error(`no request reached the proxy within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Resolves once the browser has sent `bytes` in all. */
  sent(bytes: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.clientBytes >= bytes) resolve();
        else this.waiting.push(check);
      };
      check();
    });
  }

  private checkWaiting(): void {
    for (const check of this.waiting.splice(0)) check();
  }

  /** Passes the browser's bytes on at about `bytesPerSecond` (a slow connection), or as fast as they come (`null`). */
  throttle(bytesPerSecond: number | null): void {
    this.limit = bytesPerSecond;
  }

  /** Stops passing the browser's bytes on (the connections stay open). */
  hold(): void {
    this.held = true;
  }

  release(): void {
    this.held = false;
    for (const socket of this.sockets) socket.resume();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
