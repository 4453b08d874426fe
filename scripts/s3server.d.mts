// Types of `s3server.mjs` for the TypeScript code that starts the tests' S3 server.

export type CephCheck = { ok: true } | { ok: false; message: string };

/** Whether Ceph is installed; installs Debian's packages when it may, else says how. */
export function ensureCeph(): CephCheck;

export interface S3Server {
  /** `http://127.0.0.1:<port>`: radosgw, path-style buckets. */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Ends the three daemons, waits for them, and removes the cluster's folder. */
  stop(): Promise<void>;
}

/**
 * Starts a monitor, an OSD and radosgw in `dir`; resolves once S3 answers and the tests' user
 * exists. `memoryBytes` bounds what the store holds (in memory; default 1 GiB).
 */
export function startS3Server(options: { dir: string; timeoutMs?: number; memoryBytes?: number }): Promise<S3Server>;

/** The settings of a portal whose media are in `bucket` of `server` (`MEDIA_STORE=s3`, `S3_*`). */
export function portalEnvironment(
  server: Pick<S3Server, 'endpoint' | 'region' | 'accessKeyId' | 'secretAccessKey'>,
  bucket: string,
): Record<string, string>;
