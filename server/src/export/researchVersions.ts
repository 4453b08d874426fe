import type { ResponseValue, Responses } from '#schemas/structure';
import { LIST_SEPARATOR } from '../repositories/reporting/columns.ts';
import type { StoredVersionRow } from '../repositories/reporting/researchVersionRows.ts';

/** A row of `versions.csv` before its cells are written. */
export type VersionChangeRow = Record<string, string | number | Date | null>;

/** The answers of a version: a full copy as stored, or the answers before with its changes applied. */
function answersAfter(before: Responses, version: StoredVersionRow): Responses {
  if (version.full_answers) return version.answers;
  const after: Responses = { ...before };
  for (const key of version.changed) {
    const value = version.answers[key];
    if (value === undefined) delete after[key];
    else after[key] = value;
  }
  return after;
}

const answerText = (value: ResponseValue | undefined): string | null =>
  typeof value === 'string' ? value : Array.isArray(value) ? value.join(LIST_SEPARATOR) : null;

/**
 * The rows of `versions.csv` for one kind of artifact: the versions arrive artifact by artifact in
 * number order, and each one's answers are carried forward from the one before (decision 049:
 * most versions store only what changed), so every version is read once. One row per changed
 * answer (added, changed or removed), one for the files when it added or removed any, and one
 * with an empty field when it changed nothing. `personOf` gives the author's pseudonym.
 */
export async function* versionChangeRows(
  kind: 'artifact' | 'shared_artifact',
  versions: AsyncIterable<StoredVersionRow> | Iterable<StoredVersionRow>,
  personOf: (id: number) => string,
): AsyncGenerator<VersionChangeRow> {
  let holder: number | null = null;
  let answers: Responses = {};
  let files: number[] = [];
  for await (const version of versions) {
    if (version.holder_id !== holder) {
      holder = version.holder_id;
      answers = {};
      files = [];
    }
    const after = answersAfter(answers, version);
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
      const change = !(key in answers) ? 'added' : value === undefined ? 'removed' : 'changed';
      rows += 1;
      yield {
        ...base,
        field: key,
        change,
        answer_text: answerText(value),
        answer_number: typeof value === 'number' ? value : null,
      };
    }
    const added = version.files.filter((id) => !files.includes(id)).length;
    const removed = files.filter((id) => !version.files.includes(id)).length;
    if (added > 0 || removed > 0) {
      rows += 1;
      yield { ...base, field: 'files', change: 'files', files_added: added, files_removed: removed };
    }
    if (rows === 0) yield base;
    answers = after;
    files = version.files;
  }
}
