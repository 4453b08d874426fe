import { describe, expect, it } from 'vitest';
import type { StoredVersionRow } from '../repositories/reporting/researchVersionRows.ts';
import { versionChangeRows } from './researchVersions.ts';

const at = new Date('2026-03-02T10:00:00.000Z');
const v = (holder: number, number: number, over: Partial<StoredVersionRow>): StoredVersionRow => ({
  holder_id: holder,
  number,
  author_id: 7,
  client: 'web',
  restored_from: null,
  full_answers: false,
  answers: {},
  changed: [],
  files: [],
  created_at: at,
  ...over,
});

async function rows(versions: StoredVersionRow[]) {
  const out = [];
  for await (const row of versionChangeRows('artifact', versions, (id) => `P-${id}`)) out.push(row);
  return out.map((r) => [
    r['artifact_id'],
    r['version'],
    r['field'],
    r['change'],
    r['answer_text'] ?? r['answer_number'] ?? `${r['files_added'] ?? ''}/${r['files_removed'] ?? ''}`,
  ]);
}

describe('versionChangeRows', () => {
  it('one row per changed field: added, changed, removed, files; an empty field when nothing changed', async () => {
    expect(
      await rows([
        v(1, 1, {
          full_answers: true,
          answers: { a: 'x', n: 3 },
          changed: ['a', 'n'],
          files: [5],
          client: 'system',
          author_id: null,
        }),
        v(1, 2, { answers: { a: 'y', c: ['p', 'q'] }, changed: ['a', 'c', 'n'], files: [5, 6] }),
        v(1, 3, { changed: [], files: [6] }),
        v(1, 4, { changed: [], files: [6] }),
      ]),
    ).toEqual([
      [1, 1, 'a', 'added', 'x'],
      [1, 1, 'n', 'added', 3],
      [1, 1, 'files', 'files', '1/0'],
      [1, 2, 'a', 'changed', 'y'],
      [1, 2, 'c', 'added', 'p | q'],
      [1, 2, 'n', 'removed', '/'],
      [1, 2, 'files', 'files', '1/0'],
      [1, 3, 'files', 'files', '0/1'],
      [1, 4, null, 'none', '/'],
    ]);
  });

  it('carries answers forward over deltas and full copies, and starts afresh with the next artifact', async () => {
    expect(
      await rows([
        v(1, 1, { full_answers: true, answers: { a: 'x', b: 'y' }, changed: ['a', 'b'] }),
        v(1, 2, { answers: {}, changed: ['b'] }),
        // A full copy: the whole answers, the changed keys still relative to the version before.
        v(1, 3, { full_answers: true, answers: { a: 'x', b: 'z' }, changed: ['b'] }),
        v(1, 4, { answers: { a: 'w' }, changed: ['a'] }),
        v(2, 1, { full_answers: true, answers: { b: 'z' }, changed: ['b'] }),
      ]),
    ).toEqual([
      [1, 1, 'a', 'added', 'x'],
      [1, 1, 'b', 'added', 'y'],
      [1, 2, 'b', 'removed', '/'],
      [1, 3, 'b', 'added', 'z'],
      [1, 4, 'a', 'changed', 'w'],
      [2, 1, 'b', 'added', 'z'],
    ]);
  });

  it('names the author by pseudonym, nobody for the system, and keeps client and restore', async () => {
    const out = [];
    for await (const row of versionChangeRows(
      'shared_artifact',
      [
        v(9, 1, { full_answers: true, author_id: null, client: 'system', changed: [] }),
        v(9, 2, { client: 'restore', restored_from: 1, changed: [] }),
      ],
      (id) => `P-${id}`,
    ))
      out.push(row);
    expect(out).toEqual([
      expect.objectContaining({
        version_of: 'shared_artifact',
        artifact_id: null,
        shared_artifact_id: 9,
        teacher_id: null,
        client: 'system',
      }),
      expect.objectContaining({ teacher_id: 'P-7', client: 'restore', restored_from: 1, created_at: at }),
    ]);
  });
});
