import type { ResponseValue } from '#schemas/structure';
import { LIST_SEPARATOR } from '../repositories/reporting/columns.ts';
import type { StoredVersionRow } from '../repositories/reporting/researchVersionRows.ts';
import { versionSteps } from './versionSteps.ts';

/** A row of `versions.csv` before its cells are written. */
export type VersionChangeRow = Record<string, string | number | Date | null>;

const answerText = (value: ResponseValue | undefined): string | null =>
  typeof value === 'string' ? value : Array.isArray(value) ? value.join(LIST_SEPARATOR) : null;

/**
 * The rows of `versions.csv` for one kind of artifact, its versions in artifact and number order:
 * one row per changed answer (added, changed or removed), one for the files when it added or
 * removed any, and one with an empty field when it changed nothing. `personOf` gives the author's
 * pseudonym.
 */
export async function* versionChangeRows(
  kind: 'artifact' | 'shared_artifact',
  versions: AsyncIterable<StoredVersionRow> | Iterable<StoredVersionRow>,
  personOf: (id: number) => string,
): AsyncGenerator<VersionChangeRow> {
  for await (const { version, before, after, filesAdded, filesRemoved } of versionSteps(versions)) {
    const base: VersionChangeRow = {
      version_of: kind,
      artifact_id: kind === 'artifact' ? version.holder_id : null,
      shared_artifact_id: kind === 'shared_artifact' ? version.holder_id : null,
      version: version.number,
      teacher_id: version.author_id === null ? null : personOf(version.author_id),
      client: version.client,
      restored_from: version.restored_from,
      field: null,
      change: 'none',
      answer_text: null,
      answer_number: null,
      files_added: null,
      files_removed: null,
      created_at: version.created_at,
    };
    let rows = 0;
    for (const key of version.changed) {
      const value = after[key];
      const change = !(key in before) ? 'added' : value === undefined ? 'removed' : 'changed';
      rows += 1;
      yield {
        ...base,
        field: key,
        change,
        answer_text: answerText(value),
        answer_number: typeof value === 'number' ? value : null,
      };
    }
    if (filesAdded.length > 0 || filesRemoved.length > 0) {
      rows += 1;
      yield {
        ...base,
        field: 'files',
        change: 'files',
        files_added: filesAdded.length,
        files_removed: filesRemoved.length,
      };
    }
    if (rows === 0) yield base;
  }
}
