import type { ResearchExportFilters } from '#schemas/researchExport';
import type { FileDef } from '../repositories/reporting/columns.ts';

/** What the README says about the package. */
export interface ReadmeFacts {
  exportId: number;
  startedAt: Date;
  filters: ResearchExportFilters;
  /** The selected teachers as the package names them (pseudonyms, or user names when included). */
  teacherNames: readonly string[];
  sharedPortfolioNames: readonly string[];
  rowCounts: Readonly<Record<string, number>>;
}

/** The package's README: what it is, the parameters it was made with, and its files. */
export function readmeMarkdown(facts: ReadmeFacts, files: readonly FileDef[]): string {
  const f = facts.filters;
  const included = f.identities === 'included';
  const lines = [
    '# PracticeFolio research export',
    '',
    `Export ${facts.exportId}, made ${facts.startedAt.toISOString()} (UTC). The portal's export log records who made it, with these parameters and the row counts.`,
    '',
    '## Parameters',
    '',
    '| Parameter | Value |',
    '|---|---|',
    `| Created from | ${f.from ?? 'any date'} (UTC day, inclusive) |`,
    `| Created to | ${f.to ?? 'any date'} (UTC day, inclusive) |`,
    `| Shared portfolios | ${facts.sharedPortfolioNames.length > 0 ? facts.sharedPortfolioNames.join('; ') : 'all'} |`,
    `| Teachers | ${facts.teacherNames.length > 0 ? facts.teacherNames.join('; ') : 'all teachers and PLC leads'} |`,
    `| Identities | ${included ? "included (the researcher confirmed the participants' consent)" : 'pseudonymous'} |`,
    '',
    '## Identities',
    '',
    included
      ? "People are named: `teachers.csv` holds each person's account id, user name and e-mail next to the pseudonym, and texts are as written. Keep this package as the consent and the ethics approval require."
      : 'People are pseudonymous. Each person is a stable pseudonym (`P-…`): a keyed hash (HMAC-SHA256) of the account id with a secret kept by this installation and never exported, so the same person has the same pseudonym in every export of this installation and nobody can turn it back into the person without that secret. User names, e-mail addresses and mentions of people in every text (an `@handle`, a full name, a first name, an e-mail address) are replaced by the pseudonym (`[member]` when a mention fits several people, `[email]` for an address of nobody known). Names written in other ways (nicknames, a last name alone) can remain: read texts before sharing them further.',
    '',
    '## Which rows',
    '',
    'Teachers: the selected teachers and PLC leads (all, when none is chosen), limited to members of the selected shared portfolios when some are chosen; researchers are never selected. Shared portfolios: the selected ones (all, when none is chosen), limited to those with a selected teacher as member when teachers are chosen. The date range applies to when artifacts, shared artifacts, comments and reactions were created; a comment or reaction is included only with its shared artifact, so every file joins.',
    'All rows are read in one consistent snapshot of the database. Times are ISO 8601 in UTC.',
    '',
    '## Files',
    '',
    '| File | Rows | What it holds |',
    '|---|---:|---|',
    ...files.map((file) => `| \`${file.name}.csv\` | ${facts.rowCounts[file.name] ?? 0} | ${file.meaning} |`),
    '| `codebook.md` | | The codebook: every file and column, the types, how the files join. |',
    '| `README.md` | | This file. |',
    '',
  ];
  return `${lines.join('\n')}\n`;
}
