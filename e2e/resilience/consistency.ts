import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { validateResponses } from '#schemas/responses';
import type { Responses, Structure } from '#schemas/structure';
import { openPostgres } from '../../server/src/db/client.ts';
import { startEmbedded } from '../../server/src/db/embedded.ts';

/**
 * What must hold after a crash and a restart, read from the stopped server's own database and
 * uploads folder: every media row has its files, no file lies there that no row names, nothing is
 * left pending, and every stored answer is a whole, valid answer.
 */

/** The PostgreSQL processes serving `DATA_DIR/db` (from /proc: their command lines name its data folder). */
export function postgresProcesses(dataDir: string): number[] {
  const folder = path.join(dataDir, 'db', 'pgdata');
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline.some((arg) => arg.endsWith('/postgres')) && cmdline.includes(folder)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

export interface Snapshot {
  artifacts: {
    id: number;
    structure: Structure;
    responses: Responses;
    parking_lot: boolean;
    next_caption: number;
    updated_at: Date;
  }[];
  sharedArtifacts: { id: number; structure: Structure; responses: Responses; next_caption: number }[];
  media: {
    id: number;
    storage_key: string;
    ext: string;
    size: number;
    formats: Record<string, { url: string } | null> | null;
  }[];
  links: { holder: 'artifact' | 'shared'; holder_id: number; media_id: number; caption: string }[];
  pending: string[];
}

/** Reads the stopped server's embedded database (`DATA_DIR/db`), on a server of its own. */
export async function readDatabase(dataDir: string): Promise<Snapshot> {
  const server = await startEmbedded(path.join(dataDir, 'db'));
  const pg = openPostgres(server.connection, { max: 1, onClose: () => server.stop() });
  try {
    const rows = async <T>(sql: string) => (await pg.query<T>(sql)).rows;
    return {
      artifacts: await rows(
        'SELECT id, structure, responses, parking_lot, next_caption, updated_at FROM artifacts ORDER BY id',
      ),
      sharedArtifacts: await rows('SELECT id, structure, responses, next_caption FROM shared_artifacts ORDER BY id'),
      media: await rows('SELECT id, storage_key, ext, size, formats FROM media_files ORDER BY id'),
      links: await rows(
        `SELECT 'artifact' AS holder, artifact_id AS holder_id, media_id, caption FROM artifact_media
         UNION ALL SELECT 'shared', shared_artifact_id, media_id, caption FROM shared_artifact_media`,
      ),
      pending: (await rows<{ storage_key: string }>('SELECT storage_key FROM pending_uploads')).map(
        (r) => r.storage_key,
      ),
    };
  } finally {
    await pg.close();
  }
}

/** The index of a caption letter (A → 0, Z → 25, AA → 26, …). */
function captionIndex(caption: string): number {
  let n = 0;
  for (const ch of caption) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** A stored object (a file of the uploads folder, or an object of the bucket) and its size. */
export interface StoredFile {
  name: string;
  size: number;
}

/**
 * The invariants that must hold after any crash and restart; `stored` is what the media store
 * holds (the uploads folder or the bucket), `unfinished` the uploads cut off in it (a bucket's
 * multipart uploads).
 */
export function expectConsistent(
  dataDir: string,
  db: Snapshot,
  stored: readonly StoredFile[],
  unfinished: readonly StoredFile[],
): void {
  const uploads = path.join(dataDir, 'uploads');
  expect(db.pending, 'uploads still recorded as pending').toEqual([]);
  expect(readdirSync(path.join(uploads, '.incoming')), 'files left in the temporary folder').toEqual([]);
  expect(unfinished, 'uploads cut off and left in the store').toEqual([]);

  const sizes = new Map(stored.map((f) => [f.name, f.size]));
  const referenced = new Set<string>();
  const broken: string[] = [];
  for (const m of db.media) {
    const main = `${m.storage_key}${m.ext}`;
    referenced.add(main);
    const size = sizes.get(main);
    if (size === undefined) broken.push(`${main} is missing`);
    else if (size !== m.size) broken.push(`${main} has ${size} bytes, its row says ${m.size}`);
    for (const format of Object.values(m.formats ?? {})) {
      if (!format) continue;
      const name = format.url.replace(/^\/uploads\//, '');
      referenced.add(name);
      if (!sizes.has(name)) broken.push(`${name} is missing`);
    }
  }
  expect(broken, 'media rows whose files are not stored').toEqual([]);
  const stray = stored.map((f) => f.name).filter((name) => !referenced.has(name));
  expect(stray, 'stored files that no media row names').toEqual([]);

  const linked = new Set(db.links.map((l) => l.media_id));
  expect(
    db.media.filter((m) => !linked.has(m.id)).map((m) => m.storage_key),
    'media rows no artifact holds',
  ).toEqual([]);
  const nextCaption = new Map<string, number>([
    ...db.artifacts.map((a) => [`artifact ${a.id}`, a.next_caption] as const),
    ...db.sharedArtifacts.map((a) => [`shared ${a.id}`, a.next_caption] as const),
  ]);
  const badCaptions = db.links
    .filter((l) => !(captionIndex(l.caption) < (nextCaption.get(`${l.holder} ${l.holder_id}`) ?? -1)))
    .map((l) => `${l.holder} ${l.holder_id} holds ${l.caption} beyond its next caption`);
  expect(badCaptions, 'captions past the holder’s counter').toEqual([]);

  const invalid = [
    ...db.artifacts.map((a) => ({
      id: `artifact ${a.id}`,
      issues: validateResponses(a.structure, a.responses, { requireCore: !a.parking_lot }).issues,
    })),
    ...db.sharedArtifacts.map((a) => ({
      id: `shared artifact ${a.id}`,
      issues: validateResponses(a.structure, a.responses, { requireCore: true }).issues,
    })),
  ].filter((x) => x.issues.length > 0);
  expect(invalid, 'stored answers that are not valid answers').toEqual([]);
}
