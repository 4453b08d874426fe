import type { Responses } from '#schemas/structure';
import type { StoredVersionRow } from '../repositories/reporting/researchVersionRows.ts';

/** One version of a history with the answers and files before and after it. */
export interface VersionStep<V extends StoredVersionRow = StoredVersionRow> {
  version: V;
  before: Responses;
  after: Responses;
  filesAdded: number[];
  filesRemoved: number[];
}

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

/**
 * Walks histories as stored (decision 049: most versions hold only the answers that changed, every
 * 50th the whole answers): the versions arrive artifact by artifact in number order, and each
 * one's answers are carried forward from the one before, so every version is read once.
 */
export async function* versionSteps<V extends StoredVersionRow>(
  versions: AsyncIterable<V> | Iterable<V>,
): AsyncGenerator<VersionStep<V>> {
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
    yield {
      version,
      before: answers,
      after,
      filesAdded: version.files.filter((id) => !files.includes(id)),
      filesRemoved: files.filter((id) => !version.files.includes(id)),
    };
    answers = after;
    files = version.files;
  }
}
