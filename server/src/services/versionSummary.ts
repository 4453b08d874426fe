import type { Structure } from '#schemas/structure';

/** The facts of a version its summary is made of. */
export interface SummarisedVersion {
  number: number;
  client: string;
  restoredFrom: number | null;
  changed: readonly string[];
  files: readonly number[];
}

type Kind = 'image' | 'video' | 'document';

/** Longest question title in a summary, and how many are named before "and N more". */
const TITLE_MAX = 60;
const TITLES_NAMED = 3;

/** A question's title as a summary names it: its text, shortened at a word, without a closing "?". */
function titleOf(structure: Structure, key: string): string {
  const text = (structure.find((q) => q.key === key)?.text ?? key).trim().replace(/[?:.]+$/, '');
  if (text.length <= TITLE_MAX) return text;
  const cut = text.slice(0, TITLE_MAX);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : TITLE_MAX)}…`;
}

const count = (n: number, kind: Kind) => `${n} ${kind}${n === 1 ? '' : 's'}`;

/** "2 images added", "1 document removed", … for files that came or went, by kind. */
function fileChanges(before: readonly number[], after: readonly number[], kinds: ReadonlyMap<number, Kind>): string[] {
  const parts: string[] = [];
  for (const [list, other, verb] of [
    [after, before, 'added'],
    [before, after, 'removed'],
  ] as const) {
    const moved = list.filter((id) => !other.includes(id));
    for (const kind of ['image', 'video', 'document'] as const) {
      const n = moved.filter((id) => (kinds.get(id) ?? 'document') === kind).length;
      if (n > 0) parts.push(`${count(n, kind)} ${verb}`);
    }
  }
  return parts;
}

/**
 * One line on what a version changed from the one before (`previous`, absent for the first),
 * e.g. "Student thinking, 2 images added", named by the artifact's question titles.
 */
export function summarise(
  version: SummarisedVersion,
  previous: SummarisedVersion | undefined,
  structure: Structure,
  kinds: ReadonlyMap<number, Kind>,
): string {
  if (version.number === 1 || !previous) {
    return version.client === 'copy' ? 'Copied into this shared portfolio' : 'First version';
  }
  // In the order the questions are asked; keys no question has any more come last.
  const position = (key: string) => {
    const at = structure.findIndex((q) => q.key === key);
    return at === -1 ? structure.length : at;
  };
  const titles = [...version.changed].sort((a, b) => position(a) - position(b)).map((key) => titleOf(structure, key));
  const named =
    titles.length > TITLES_NAMED
      ? [...titles.slice(0, TITLES_NAMED), `and ${titles.length - TITLES_NAMED} more`]
      : titles;
  const parts = [...named, ...fileChanges(previous.files, version.files, kinds)];
  const what = parts.length > 0 ? parts.join(', ') : 'No changes';
  return version.restoredFrom === null ? what : `Restored version ${version.restoredFrom}: ${what}`;
}
