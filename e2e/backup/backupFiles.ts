import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { openPostgres } from '../../server/src/db/client.ts';
import { startEmbedded } from '../../server/src/db/embedded.ts';

/** Damaged copies of a backup file, as a failing disk, a cut transfer or a hand would make them. */

/** The first half of the file: a transfer cut short. */
export function truncated(file: string, out: string): string {
  const bytes = readFileSync(file);
  writeFileSync(out, bytes.subarray(0, Math.floor(bytes.length / 2)));
  return out;
}

/** One character of the rows changed (an e-mail address in the users' table): a flipped bit on disk. */
export function altered(file: string, out: string, text: string): string {
  const bytes = Buffer.from(readFileSync(file));
  const at = bytes.indexOf(Buffer.from(text));
  if (at < 0) throw new Error(`${text} is not in the backup`);
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(out, bytes);
  return out;
}

/** The same backup, its manifest naming another schema version (a backup of a newer portal). */
export async function withSchemaVersion(file: string, out: string, version: string): Promise<string> {
  const extract = tar.extract();
  const pack = tar.pack();
  extract.on('entry', (header, stream, next) => {
    if (header.name !== 'manifest.json') {
      stream.pipe(pack.entry(header, next));
      return;
    }
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => chunks.push(c as Buffer));
    stream.on('end', () => {
      const manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { schemaVersion: string };
      manifest.schemaVersion = version;
      const body = Buffer.from(JSON.stringify(manifest));
      pack.entry({ ...header, size: body.length }, body, next);
    });
  });
  extract.on('finish', () => pack.finalize());
  await Promise.all([pipeline(createReadStream(file), extract), pipeline(pack, createWriteStream(out))]);
  return out;
}

/** The files of a folder tree (none when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * A digest of each table's rows (`count:md5` of the rows' text in order) of a stopped portal's
 * embedded database (`DATA_DIR/db`, on a server of its own), rows limited by `where` per table,
 * for every table of its schema but `skip`.
 */
export async function tableDigests(
  dataDir: string,
  skip: ReadonlySet<string>,
  where: Record<string, string> = {},
): Promise<Record<string, string>> {
  const server = await startEmbedded(path.join(dataDir, 'db'));
  const db = openPostgres(server.connection, { max: 1, onClose: () => server.stop() });
  try {
    const tables = await db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY c.relname`,
    );
    const digests: Record<string, string> = {};
    for (const { name } of tables.rows) {
      if (skip.has(name)) continue;
      const { rows } = await db.query<{ digest: string }>(
        `SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest
         FROM ${name} x ${where[name] ? `WHERE ${where[name]}` : ''}`,
      );
      digests[name] = rows[0]!.digest;
    }
    return digests;
  } finally {
    await db.close();
  }
}
