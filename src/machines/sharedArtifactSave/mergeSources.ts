import type { Responses, Structure } from '../../schemas/structure.ts';
import type { VersionDetail } from '../../schemas/versions.ts';
import { getSharedArtifact, getSharedVersion, listSharedVersions } from '../../services/sharedService.ts';
import { VERSIONS_PAGE_MAX } from '../../schemas/versions.ts';
import { FILES_FIELD } from './threeWayMerge.ts';

/** A version as a merge reads it: its number, answers and file ids. */
export interface VersionSnapshot {
  number: number;
  responses: Responses;
  files: number[];
}

/** What a merge after a refused save needs from the server. */
export interface MergeSources {
  /** The version the edit was based on (empty answers and files when there was none). */
  base: VersionSnapshot;
  /** The newest version (theirs). */
  current: VersionSnapshot;
  /** The stored `updated_at` to save the merged answers against. */
  updatedAt: string;
  /** Who saved the versions after the base, newest first, each once (`null`: an account that is gone). */
  people: (string | null)[];
}

/** What the merge loader is asked. */
export interface MergeSourcesInput {
  artifactId: number;
  /** The version the edit is based on. */
  basedOn: number;
}

const snapshot = (v: VersionDetail): VersionSnapshot => ({
  number: v.number,
  responses: v.responses,
  files: [...v.images, ...v.videos, ...v.documents].map((f) => f.id),
});

/**
 * Reads the shared artifact (its stored `updated_at` and newest version number, the number read
 * after the answers so it is never older than them), then the base and the newest version and who
 * saved since the base, through the versions API.
 */
export async function loadMergeSources(input: MergeSourcesInput, signal?: AbortSignal): Promise<MergeSources> {
  const stored = await getSharedArtifact(input.artifactId, signal);
  const newest = stored.version;
  const empty: VersionSnapshot = { number: 0, responses: {}, files: [] };
  const since = Math.min(Math.max(newest - input.basedOn, 1), VERSIONS_PAGE_MAX);
  const [base, current, list] = await Promise.all([
    input.basedOn > 0 ? getSharedVersion(input.artifactId, input.basedOn, signal).then(snapshot) : empty,
    newest > 0 ? getSharedVersion(input.artifactId, newest, signal).then(snapshot) : empty,
    listSharedVersions(input.artifactId, since, signal),
  ]);
  const authors = list.items.filter((v) => v.number > input.basedOn).map((v) => v.author?.name ?? null);
  return { base, current, updatedAt: stored.updated_at, people: [...new Set(authors)] };
}

/** Items in a sentence: 'A', 'A and B', 'A, B and C'. */
function listSentence(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The people in a sentence: 'Ana Lopez', 'Ana Lopez and Lee Lead'; 'someone else' for one unknown or none. */
export function peopleSentence(people: readonly (string | null)[]): string {
  const names = [...new Set(people.map((p) => p ?? 'someone else'))];
  return names.length === 0 ? 'someone else' : listSentence(names);
}

/** A field as the person knows it: its question, or 'Files'. */
export function fieldTitle(key: string, questions: Structure): string {
  if (key === FILES_FIELD) return 'Files';
  return questions.find((q) => q.key === key)?.text || key;
}

/** Fields in a sentence, in question order and files last: '“Student thinking” and “Files”'. */
export function fieldsSentence(keys: readonly string[], questions: Structure): string {
  const order = (key: string) => {
    const index = questions.findIndex((q) => q.key === key);
    return key === FILES_FIELD ? Number.MAX_SAFE_INTEGER : index < 0 ? questions.length : index;
  };
  return listSentence(
    [...new Set(keys)].sort((a, b) => order(a) - order(b)).map((k) => `“${fieldTitle(k, questions)}”`),
  );
}

/** What the person is told after a merged save: 'Saved with Ana Lopez's changes to “Student thinking” and “Files”.' */
export function mergedMessage(people: readonly (string | null)[], keys: readonly string[], questions: Structure) {
  return `Saved with ${peopleSentence(people)}'s changes to ${fieldsSentence(keys, questions)}.`;
}
