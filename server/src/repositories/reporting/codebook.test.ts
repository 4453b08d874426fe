import { describe, expect, it } from 'vitest';
import { codebookMarkdown, COLUMNS_FILE, QUESTIONS_FILE, researchFiles } from '../../export/researchFiles.ts';
import { SUMMARY_COLUMN_MEANINGS } from '../../services/exportService.ts';

// The codebook is generated from the column definitions: these files pin its words, so that a
// change of layout never changes a byte of what researchers receive.
describe('the research package codebook', () => {
  for (const identities of ['pseudonymous', 'included'] as const) {
    it(`is the same text as before, identities ${identities}`, async () => {
      const files = [...researchFiles(identities), QUESTIONS_FILE, COLUMNS_FILE];
      await expect(codebookMarkdown(files, SUMMARY_COLUMN_MEANINGS)).toMatchFileSnapshot(`__golden__/codebook-${identities}.md`);
      const columns = files.flatMap((f) => f.columns.map((c) => [`${f.name}.csv`, c.name, c.type, c.meaning, c.allowed ?? ''].join('\t')));
      await expect(`${columns.join('\n')}\n`).toMatchFileSnapshot(`__golden__/codebook_columns-${identities}.tsv`);
    });
  }
});
