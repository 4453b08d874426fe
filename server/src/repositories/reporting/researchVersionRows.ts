import type { Responses } from '#schemas/structure';
import type { Queryable } from '../../db/client.ts';
import { EITHER_ARTIFACT_COLUMNS, TIMESTAMP_WORDS, type FileDef } from './columns.ts';
import { byId, keysetBatches } from './keyset.ts';
import { inRange, rangeParams, type CreatedRange } from './researchSelection.ts';

// The history of the research package's artifacts (decision 049's `artifact_versions`), read a
// page of artifacts at a time with every version of each in order, for `versions.csv`.

/** Artifacts whose histories are read at once (a long history is a few thousand small rows). */
const HISTORY_PAGE = 50;

/** One stored version: its answers are whole (`full_answers`) or only those that changed. */
export interface StoredVersionRow {
  /** The artifact or shared artifact. */
  holder_id: number;
  number: number;
  author_id: number | null;
  client: string;
  restored_from: number | null;
  full_answers: boolean;
  answers: Responses;
  changed: string[];
  files: number[];
  created_at: Date;
}

const VERSIONS_OF = (fk: string) => `
  SELECT v.${fk} AS holder_id, v.number, v.author_id, v.client, v.restored_from, v.full_answers, v.answers,
    v.changed, v.files, v.created_at
  FROM artifact_versions v WHERE v.${fk} = ANY($1::int[])
  ORDER BY v.${fk}, v.number`;

async function* historyPages(
  tx: Queryable,
  idsSql: string,
  versionsSql: string,
  range?: CreatedRange,
): AsyncGenerator<StoredVersionRow> {
  const bounds = range ? rangeParams(range) : [];
  const idPages = keysetBatches(
    (after) => tx.query<{ id: number }>(idsSql, [after, HISTORY_PAGE, ...bounds]).then((r) => r.rows),
    byId<{ id: number }>(HISTORY_PAGE),
  );
  for await (const ids of idPages) {
    if (ids.length > 0) yield* (await tx.query<StoredVersionRow>(versionsSql, [ids.map((r) => r.id)])).rows;
  }
}

/** The versions of the package's personal artifacts (those of `artifacts.csv`), artifact by artifact. */
export function artifactVersionRows(tx: Queryable, range: CreatedRange): AsyncGenerator<StoredVersionRow> {
  return historyPages(
    tx,
    `SELECT a.id FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id
     WHERE a.id > $1 AND a.saved AND p.owner_id IN (SELECT id FROM export_people) AND ${inRange('a.created_at')}
     ORDER BY a.id LIMIT $2`,
    VERSIONS_OF('artifact_id'),
    range,
  );
}

/** The versions of the package's shared artifacts (those of `shared_artifacts.csv`). */
export function sharedArtifactVersionRows(tx: Queryable): AsyncGenerator<StoredVersionRow> {
  return historyPages(
    tx,
    'SELECT sa.id FROM shared_artifacts sa WHERE sa.id > $1 AND sa.id IN (SELECT id FROM export_sas) ORDER BY sa.id LIMIT $2',
    VERSIONS_OF('shared_artifact_id'),
  );
}

/** `versions.csv`: the history of every artifact of the package, one row per version and changed field. */
export const VERSIONS_FILE: FileDef = {
  name: 'versions',
  meaning:
    'One row per saved version of an artifact or shared artifact of the package and per field it changed from the version before (each answer, and the files); a version that changed nothing has one row with an empty field. Version 1 of an artifact saved before versions were kept is its state then.',
  columns: [
    {
      name: 'version_of',
      type: 'category',
      meaning: 'Whether the version is of a personal artifact or of a shared artifact.',
      allowed: 'artifact, shared_artifact',
    },
    ...EITHER_ARTIFACT_COLUMNS,
    { name: 'version', type: 'integer', meaning: "The version's number, from 1 per artifact.", allowed: '1 or more' },
    {
      name: 'teacher_id',
      type: 'person',
      meaning:
        "Who saved the version (any member of a shared portfolio may); empty when the history's start was recorded by the system or the account no longer exists.",
      allowed: 'a pseudonym P-…, or empty',
    },
    {
      name: 'client',
      type: 'category',
      meaning:
        'Through what the version was saved: the web portal, a mobile app, a copy into a shared portfolio, a restore of an earlier version, or the system (the start of a history).',
      allowed: 'web, mobile, copy, restore, system',
    },
    {
      name: 'restored_from',
      type: 'integer',
      meaning: 'The version a restore brought back; empty otherwise.',
      allowed: 'a version number, or empty',
    },
    {
      name: 'field',
      type: 'category',
      meaning:
        'What changed: a question key (codebook_questions.csv), or "files" for files added or removed; empty when the version changed nothing.',
      allowed: 'a question key, files, or empty',
    },
    {
      name: 'change',
      type: 'category',
      meaning:
        'How the field changed: an answer added (none before), changed or removed; files for the files row; none when nothing changed.',
      allowed: 'added, changed, removed, files, none',
    },
    {
      name: 'answer_text',
      type: 'text',
      meaning:
        'The answer after the change, as text (several choices separated by " | "), de-identified like responses.csv; empty when removed, for a number or for files.',
    },
    {
      name: 'answer_number',
      type: 'number',
      meaning: 'The answer after the change of a number question; empty otherwise.',
    },
    {
      name: 'files_added',
      type: 'integer',
      meaning: 'On the files row: how many files the version added; empty otherwise.',
      allowed: '0 or more, or empty',
    },
    {
      name: 'files_removed',
      type: 'integer',
      meaning: 'On the files row: how many files the version removed; empty otherwise.',
      allowed: '0 or more, or empty',
    },
    { name: 'created_at', type: 'timestamp', meaning: 'When the version was saved.', allowed: TIMESTAMP_WORDS },
  ],
};
