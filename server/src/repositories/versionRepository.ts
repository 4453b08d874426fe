import { isDeepStrictEqual } from 'node:util';
import type { Queryable } from '../db/client.ts';
import type { Responses } from '#schemas/structure';
import type { VersionClient } from '#schemas/versions';
import {
  emptyMediaLists,
  MEDIA_COLUMNS,
  toMedia,
  type Holder,
  type MediaLists,
  type MediaRow,
} from './mediaRepository.ts';
import { iso, json } from './sql.ts';

/** Every this many versions one holds the whole answers; the ones between hold what changed (decision 049). */
export const FULL_ANSWERS_EVERY = 50;

const HOLDER = {
  artifact: { fk: 'artifact_id', table: 'artifacts', links: 'artifact_media' },
  sharedArtifact: { fk: 'shared_artifact_id', table: 'shared_artifacts', links: 'shared_artifact_media' },
} as const;

/** Who saved a version and how. */
export interface VersionSource {
  /** `null`: nobody in particular (the system). */
  authorId: number | null;
  client: VersionClient;
  /** The version a restore brought back. */
  restoredFrom?: number;
}

/** A version as the history lists it (without its answers). */
export interface VersionRow {
  number: number;
  author: { id: number; name: string } | null;
  createdAt: string;
  client: VersionClient;
  restoredFrom: number | null;
  /** Question keys whose answer differs from the version before. */
  changed: string[];
  files: number[];
}

interface StoredRow {
  number: number;
  author_id: number | null;
  author_name: string | null;
  created_at: Date;
  client: VersionClient;
  restored_from: number | null;
  changed: string[];
  files: number[];
}

const LIST_COLUMNS = `v.number, v.author_id, u.username AS author_name, v.created_at, v.client, v.restored_from, v.changed, v.files`;

function toRow(r: StoredRow): VersionRow {
  return {
    number: r.number,
    author: r.author_id === null ? null : { id: r.author_id, name: r.author_name ?? '' },
    createdAt: iso(r.created_at),
    client: r.client,
    restoredFrom: r.restored_from,
    changed: r.changed,
    files: r.files,
  };
}

/** The keys whose answers differ between two answer sets. */
function changedKeys(before: Responses, after: Responses): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => !isDeepStrictEqual(before[key], after[key])).sort();
}

/**
 * SQL for the history of artifacts and shared artifacts: one immutable row per save, numbered per
 * artifact, with answers stored as deltas between periodic full copies (`FULL_ANSWERS_EVERY`), and
 * the files any version held kept in `artifact_version_media` until the artifact is deleted.
 */
export const versionRepository = {
  /**
   * Records the holder's current answers and files as its next version; call in the transaction
   * of the save, after its writes. Locks the holder row, so two saves never take one number.
   * Returns the new number, or `null` when the holder no longer exists.
   */
  async record(db: Queryable, holder: Holder, holderId: number, source: VersionSource): Promise<number | null> {
    const h = HOLDER[holder];
    const { rows: current } = await db.query<{ responses: Responses }>(
      `SELECT responses FROM ${h.table} WHERE id = $1 FOR UPDATE`,
      [holderId],
    );
    if (!current[0]) return null;
    const answers = current[0].responses;
    const { rows: files } = await db.query<{ media_id: number }>(
      `WITH held AS (SELECT media_id, caption, alt, description FROM ${h.links} WHERE ${h.fk} = $1),
       kept AS (
         INSERT INTO artifact_version_media (${h.fk}, media_id, caption, alt, description)
         SELECT $1, media_id, caption, alt, description FROM held
         ON CONFLICT (${h.fk}, media_id) WHERE ${h.fk} IS NOT NULL
         DO UPDATE SET alt = excluded.alt, description = excluded.description
           WHERE (artifact_version_media.alt, artifact_version_media.description) IS DISTINCT FROM (excluded.alt, excluded.description)
       )
       SELECT media_id FROM held ORDER BY media_id`,
      [holderId],
    );
    const last = await versionRepository.latestNumber(db, holder, holderId);
    const previous = last === 0 ? {} : await versionRepository.answersAt(db, holder, holderId, last);
    const number = last + 1;
    const changed = changedKeys(previous, answers);
    const full = (number - 1) % FULL_ANSWERS_EVERY === 0;
    const stored = full ? answers : Object.fromEntries(changed.flatMap((k) => (k in answers ? [[k, answers[k]]] : [])));
    await db.query(
      `INSERT INTO artifact_versions (${h.fk}, number, author_id, client, restored_from, full_answers, answers, changed, files)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::text[], $9::int[])`,
      [
        holderId,
        number,
        source.authorId,
        source.client,
        source.restoredFrom ?? null,
        full,
        json(stored),
        changed,
        files.map((f) => f.media_id),
      ],
    );
    return number;
  },

  /**
   * Starts the history of every saved artifact and shared artifact that has none with its current
   * state as version 1, by its owner (a shared one: whoever saved it last, when known), through
   * the system: as migration 0025 did for the data before it, here for the demo data.
   */
  async startHistories(db: Queryable): Promise<void> {
    await db.query(
      `INSERT INTO artifact_versions (artifact_id, number, author_id, client, full_answers, answers, changed, files, created_at)
       SELECT a.id, 1, p.owner_id, 'system', true, a.responses, ARRAY(SELECT jsonb_object_keys(a.responses) ORDER BY 1),
              ARRAY(SELECT am.media_id FROM artifact_media am WHERE am.artifact_id = a.id ORDER BY am.media_id), a.updated_at
       FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id
       WHERE a.saved AND NOT EXISTS (SELECT 1 FROM artifact_versions v WHERE v.artifact_id = a.id)`,
    );
    await db.query(
      `INSERT INTO artifact_versions (shared_artifact_id, number, author_id, client, full_answers, answers, changed, files, created_at)
       SELECT sa.id, 1, coalesce(sa.updated_by, sa.owner_id), 'system', true, sa.responses, ARRAY(SELECT jsonb_object_keys(sa.responses) ORDER BY 1),
              ARRAY(SELECT sm.media_id FROM shared_artifact_media sm WHERE sm.shared_artifact_id = sa.id ORDER BY sm.media_id), sa.updated_at
       FROM shared_artifacts sa
       WHERE NOT EXISTS (SELECT 1 FROM artifact_versions v WHERE v.shared_artifact_id = sa.id)`,
    );
    await db.query(
      `INSERT INTO artifact_version_media (artifact_id, media_id, caption, alt, description)
       SELECT am.artifact_id, am.media_id, am.caption, am.alt, am.description FROM artifact_media am
       ON CONFLICT (artifact_id, media_id) WHERE artifact_id IS NOT NULL DO NOTHING`,
    );
    await db.query(
      `INSERT INTO artifact_version_media (shared_artifact_id, media_id, caption, alt, description)
       SELECT shared_artifact_id, media_id, caption, alt, description FROM shared_artifact_media
       ON CONFLICT (shared_artifact_id, media_id) WHERE shared_artifact_id IS NOT NULL DO NOTHING`,
    );
  },

  /** The newest version's number (0: no version yet). */
  async latestNumber(db: Queryable, holder: Holder, holderId: number): Promise<number> {
    const h = HOLDER[holder];
    const { rows } = await db.query<{ n: number | null }>(
      `SELECT max(number) AS n FROM artifact_versions WHERE ${h.fk} = $1`,
      [holderId],
    );
    return rows[0]?.n ?? 0;
  },

  /** The whole answers of version `number`, rebuilt from the full copy at or before it and the changes after it. */
  async answersAt(db: Queryable, holder: Holder, holderId: number, number: number): Promise<Responses> {
    const h = HOLDER[holder];
    const { rows } = await db.query<{ full_answers: boolean; answers: Responses; changed: string[] }>(
      `SELECT full_answers, answers, changed FROM artifact_versions
       WHERE ${h.fk} = $1 AND number <= $2
         AND number >= (SELECT max(number) FROM artifact_versions WHERE ${h.fk} = $1 AND number <= $2 AND full_answers)
       ORDER BY number`,
      [holderId, number],
    );
    let answers: Responses = {};
    for (const row of rows) {
      if (row.full_answers) {
        answers = { ...row.answers };
        continue;
      }
      for (const key of row.changed) {
        if (key in row.answers) answers[key] = row.answers[key]!;
        else delete answers[key];
      }
    }
    return answers;
  },

  /**
   * Up to `limit` versions older than `before` (all when absent), newest first, plus the version
   * just older than the last of them (for what changed in it), if any.
   */
  async page(
    db: Queryable,
    holder: Holder,
    holderId: number,
    page: { before: number | null; limit: number },
  ): Promise<VersionRow[]> {
    const h = HOLDER[holder];
    const { rows } = await db.query<StoredRow>(
      `SELECT ${LIST_COLUMNS} FROM artifact_versions v LEFT JOIN users u ON u.id = v.author_id
       WHERE v.${h.fk} = $1 AND ($2::int IS NULL OR v.number < $2)
       ORDER BY v.number DESC LIMIT $3`,
      [holderId, page.before, page.limit + 1],
    );
    return rows.map(toRow);
  },

  /** One version and the one before it (for what changed), newest first; empty when there is no such version. */
  async withPrevious(db: Queryable, holder: Holder, holderId: number, number: number): Promise<VersionRow[]> {
    const h = HOLDER[holder];
    const { rows } = await db.query<StoredRow>(
      `SELECT ${LIST_COLUMNS} FROM artifact_versions v LEFT JOIN users u ON u.id = v.author_id
       WHERE v.${h.fk} = $1 AND v.number IN ($2, $2 - 1) ORDER BY v.number DESC`,
      [holderId, number],
    );
    return rows[0]?.number === number ? rows.map(toRow) : [];
  },

  /** The kind of each of these kept files. */
  async kinds(db: Queryable, mediaIds: readonly number[]): Promise<Map<number, MediaRow['kind']>> {
    if (mediaIds.length === 0) return new Map();
    const { rows } = await db.query<{ id: number; kind: MediaRow['kind'] }>(
      'SELECT id, kind FROM media_files WHERE id = ANY($1::int[])',
      [mediaIds],
    );
    return new Map(rows.map((r) => [r.id, r.kind]));
  },

  /** Files a version of the holder held, as the holder held them, by kind in caption order. */
  async keptFiles(db: Queryable, holder: Holder, holderId: number, mediaIds: readonly number[]): Promise<MediaLists> {
    const lists = emptyMediaLists();
    if (mediaIds.length === 0) return lists;
    const h = HOLDER[holder];
    const { rows } = await db.query<MediaRow & { caption: string; alt: string; description: string }>(
      `SELECT l.caption, l.alt, l.description, ${MEDIA_COLUMNS}
       FROM artifact_version_media l JOIN media_files m ON m.id = l.media_id
       WHERE l.${h.fk} = $1 AND l.media_id = ANY($2::int[]) ORDER BY length(l.caption), l.caption`,
      [holderId, mediaIds],
    );
    const segment = { image: 'images', video: 'videos', document: 'documents' } as const;
    for (const row of rows) lists[segment[row.kind]].push(toMedia(row, row));
    return lists;
  },

  /** Links kept files to the holder again as it held them (a restore); files it holds already are left as they are. */
  async relink(db: Queryable, holder: Holder, holderId: number, mediaIds: readonly number[]): Promise<void> {
    if (mediaIds.length === 0) return;
    const h = HOLDER[holder];
    await db.query(
      `INSERT INTO ${h.links} (${h.fk}, media_id, caption, alt, description)
       SELECT ${h.fk}, media_id, caption, alt, description FROM artifact_version_media
       WHERE ${h.fk} = $1 AND media_id = ANY($2::int[])
       ON CONFLICT DO NOTHING`,
      [holderId, mediaIds],
    );
  },
};
