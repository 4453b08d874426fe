// Types of `redisServer.mjs` for the TypeScript code that starts the tests' Redis.

export type RedisCheck = { ok: true } | { ok: false; message: string };

/** Whether redis-server is installed; else the message with the command that installs it. */
export function ensureRedis(): RedisCheck;

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` (database 0). */
  url: string;
  port: number;
  /** Ends the server and waits for it. */
  stop(): Promise<void>;
}

/**
 * Starts redis-server on a free loopback port (or on `port`), nothing kept on disk; resolves once
 * it answers. `databases`: how many numbered databases it has (default 16).
 */
export function startRedisServer(options?: {
  databases?: number;
  timeoutMs?: number;
  port?: number;
}): Promise<RedisServer>;
