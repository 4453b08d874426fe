import type { ColumnType, FileDef, SummaryFileDef } from './columns.ts';

// The research package's codebook, generated from the column definitions of its files
// (`researchColumns.ts`) and of the two summary CSVs (`summaryColumns.ts`).

const TYPE_WORDS: Record<ColumnType, string> = {
  person: "a person's pseudonym (P-…), the key of teachers.csv",
  integer: "a whole number (ids are the portal's own and join the files)",
  number: 'a decimal number (a dot as decimal separator)',
  boolean: '`true` or `false`',
  timestamp: 'ISO 8601 in UTC (`Z`)',
  category: 'one of a fixed set of values',
  text: 'free text (mentions of people replaced unless identities are included; cells a spreadsheet would run as a formula start with an apostrophe)',
  list: 'several values separated by ` | `',
};

/**
 * The human codebook: the files, their columns, the types, how to read them, and the columns the
 * two summary CSVs of the portal add to those of the original or write otherwise.
 */
export function codebookMarkdown(files: readonly FileDef[], summaries: readonly SummaryFileDef[]): string {
  const lines = [
    '# Codebook',
    '',
    'Every file is UTF-8 CSV with a header row, comma-separated, `\\n` line ends, fields quoted when they hold a comma, a quote or a line break.',
    'Empty cells mean "no value". The same columns are listed, machine-readably, in `codebook_columns.csv`; the questions of every structure are in `codebook_questions.csv`.',
    '',
    '## Types',
    '',
    '| Type | Written as |',
    '|---|---|',
    ...Object.entries(TYPE_WORDS).map(([type, words]) => `| ${type} | ${words} |`),
    '',
    '## How the files join',
    '',
    '- `teacher_id` (and `owner_id`) in every file → `teachers.csv`.',
    '- `artifacts.portfolio_id` → `portfolios.csv`; `responses.artifact_id` → `artifacts.csv`; `responses.shared_artifact_id` → `shared_artifacts.csv`.',
    '- `shared_artifacts.shared_portfolio_id`, `memberships.shared_portfolio_id` and `codebook_questions.shared_portfolio_id` → `shared_portfolios.csv`.',
    '- `comments.shared_artifact_id`, `reactions.shared_artifact_id` and `scores.shared_artifact_id` → `shared_artifacts.csv`.',
    '- `scores.rubric_version_id` and `rubric_criteria.rubric_version_id` → `rubrics.csv`; `scores.criterion_id` and `scores.level_id` → `rubric_criteria.csv`; `rubrics.shared_portfolio_id` → `shared_portfolios.csv`.',
    '',
  ];
  for (const file of files) {
    lines.push(
      `## ${file.name}.csv`,
      '',
      file.meaning,
      '',
      '| Column | Type | Meaning | Allowed values |',
      '|---|---|---|---|',
    );
    for (const c of file.columns) lines.push(`| \`${c.name}\` | ${c.type} | ${c.meaning} | ${c.allowed ?? ''} |`);
    lines.push('');
  }
  lines.push(
    '## The summary CSVs of the portal',
    '',
    'The Teacher Portfolios and Shared Portfolios pages download one summary row per portfolio. Their first columns are those of the original system; these columns follow them (account ids, user names and e-mails are those of the portal: the summaries are never de-identified).',
    '',
  );
  for (const file of summaries) {
    lines.push(`### ${file.fileName}`, '', '| Column | Meaning |', '|---|---|');
    for (const c of file.columns) if (c.since !== 'same') lines.push(`| ${c.name} | ${c.meaning} |`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** The rows of `codebook_columns.csv`: every column of every file, this one included. */
export function codebookColumnRows(
  files: readonly FileDef[],
): Record<'file' | 'column' | 'type' | 'meaning' | 'allowed_values', string>[] {
  return files.flatMap((file) =>
    file.columns.map((c) => ({
      file: `${file.name}.csv`,
      column: c.name,
      type: c.type,
      meaning: c.meaning,
      allowed_values: c.allowed ?? '',
    })),
  );
}
