import { describe, expect, it } from 'vitest';
import { codebookColumnRows, codebookMarkdown } from './codebook.ts';
import { COLUMNS_FILE, QUESTIONS_FILE, researchFiles } from './researchColumns.ts';
import { SUMMARY_FILES } from './summaryColumns.ts';

// The codebook is generated from the column definitions: these files pin its words, so that a
// change of layout never changes a byte of what researchers receive.
describe('the research package codebook', () => {
  for (const identities of ['pseudonymous', 'included'] as const) {
    it(`is the same text as before, identities ${identities}`, async () => {
      const files = [...researchFiles(identities), QUESTIONS_FILE, COLUMNS_FILE];
      await expect(codebookMarkdown(files, SUMMARY_FILES)).toMatchFileSnapshot(`__golden__/codebook-${identities}.md`);
      const columns = codebookColumnRows(files).map((r) =>
        [r.file, r.column, r.type, r.meaning, r.allowed_values].join('\t'),
      );
      await expect(`${columns.join('\n')}\n`).toMatchFileSnapshot(`__golden__/codebook_columns-${identities}.tsv`);
    });
  }
});
