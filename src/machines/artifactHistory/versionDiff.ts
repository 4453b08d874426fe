/**
 * Field-by-field differences between two states of an artifact (two versions, or two artifacts
 * of one portfolio side by side): word-level differences for text answers (jsdiff), choices added
 * and removed for multi-selects, standards tags added and removed, a changed value for single
 * choices and numbers, and files added and removed. Pure: no React, no requests.
 */
import { diffWords } from 'diff';
import type { Media } from '../../schemas/media.ts';
import {
  RESERVED_KEYS,
  type Question,
  type Responses,
  type ResponseValue,
  type Structure,
} from '../../schemas/structure.ts';

/** What is compared: the answers and the files. */
export interface DiffSide {
  responses: Responses;
  images: readonly Media[];
  videos: readonly Media[];
  documents: readonly Media[];
}

/** A run of words: the same on both sides, only in the newer (`added`) or only in the older (`removed`). */
export interface WordPart {
  change: 'same' | 'added' | 'removed';
  text: string;
}

interface FieldBase {
  key: string;
  /** The question's text (its key when it has none). */
  title: string;
}

/** How one answer changed. */
export type FieldDiff =
  | (FieldBase & { kind: 'text'; parts: WordPart[] })
  | (FieldBase & { kind: 'choices' | 'standards'; added: string[]; removed: string[]; kept: string[] })
  | (FieldBase & { kind: 'value'; before: string | null; after: string | null });

/** A file of the newer side the older lacks (`added`), or the reverse (`removed`). */
export interface FileChange {
  change: 'added' | 'removed';
  kind: 'images' | 'videos' | 'documents';
  media: Media;
}

export interface ArtifactDiff {
  /** The answers that differ, in question order. */
  fields: FieldDiff[];
  /** Files added, then files removed, each in the kinds' order. */
  files: FileChange[];
}

const KINDS = ['images', 'videos', 'documents'] as const;
/**
 * Past this many word edits two texts count as rewritten (the older removed whole, the newer
 * added whole): the diff's work grows with the edits, and such a diff reads no better.
 */
const WORD_EDITS_MAX = 2_000;

const asText = (value: ResponseValue | undefined): string =>
  value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);

const asList = (value: ResponseValue | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : String(value) === '' ? [] : [String(value)];

const same = (a: ResponseValue | undefined, b: ResponseValue | undefined): boolean =>
  Array.isArray(a) || Array.isArray(b)
    ? asList(a).join('\u0000') === asList(b).join('\u0000')
    : asText(a) === asText(b);

/** Word-level parts from `before` to `after`, neighbouring runs of one change joined. */
export function wordParts(before: string, after: string): WordPart[] {
  const parts: WordPart[] = [];
  const changes = diffWords(before, after, { maxEditLength: WORD_EDITS_MAX }) ?? [
    { removed: true, added: false, value: before, count: 1 },
    { added: true, removed: false, value: after, count: 1 },
  ];
  for (const c of changes) {
    const change = c.added ? 'added' : c.removed ? 'removed' : 'same';
    if (c.value === '') continue;
    const last = parts.at(-1);
    if (last && last.change === change) last.text += c.value;
    else parts.push({ change, text: c.value });
  }
  return parts;
}

/** Which of the labels were added, removed and kept (in the newer side's order, removed in the older's). */
function listChange(before: readonly string[], after: readonly string[]) {
  const old = new Set(before);
  const now = new Set(after);
  return {
    added: after.filter((label) => !old.has(label)),
    removed: before.filter((label) => !now.has(label)),
    kept: after.filter((label) => old.has(label)),
  };
}

function fieldDiff(question: Question, before: ResponseValue | undefined, after: ResponseValue | undefined): FieldDiff {
  const base = { key: question.key, title: question.text || question.key };
  if (question.key === RESERVED_KEYS.standards || question.type === 'expansionPanelChoices')
    return { ...base, kind: 'standards', ...listChange(asList(before), asList(after)) };
  if (question.type === 'multipleResponse' || Array.isArray(before) || Array.isArray(after))
    return { ...base, kind: 'choices', ...listChange(asList(before), asList(after)) };
  if (question.type === 'shortText' || question.type === 'longText')
    return { ...base, kind: 'text', parts: wordParts(asText(before), asText(after)) };
  const text = (value: ResponseValue | undefined) => (asText(value) === '' ? null : asText(value));
  return { ...base, kind: 'value', before: text(before), after: text(after) };
}

/** The questions to compare: the structure's, then any key answered outside it (as text). */
function questionsOf(structure: Structure, older: Responses, newer: Responses): Question[] {
  const known = new Set(structure.map((q) => q.key));
  const extra = [...new Set([...Object.keys(older), ...Object.keys(newer)])]
    .filter((key) => !known.has(key))
    .map((key): Question => ({ key, text: key, type: 'longText' }));
  return [...structure.filter((q) => q.type !== 'fileUpload'), ...extra];
}

/** What changed from `older` to `newer`, field by field and file by file. */
export function diffArtifacts(structure: Structure, older: DiffSide, newer: DiffSide): ArtifactDiff {
  const fields = questionsOf(structure, older.responses, newer.responses)
    .filter((q) => !same(older.responses[q.key], newer.responses[q.key]))
    .map((q) => fieldDiff(q, older.responses[q.key], newer.responses[q.key]));
  const files: FileChange[] = [];
  for (const change of ['added', 'removed'] as const) {
    const [from, to] = change === 'added' ? [older, newer] : [newer, older];
    for (const kind of KINDS) {
      const ids = new Set(from[kind].map((m) => m.id));
      for (const media of to[kind]) if (!ids.has(media.id)) files.push({ change, kind, media });
    }
  }
  return { fields, files };
}

/** Whether the two sides are the same in every compared field and file. */
export const isUnchanged = (diff: ArtifactDiff): boolean => diff.fields.length === 0 && diff.files.length === 0;
