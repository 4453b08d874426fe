/**
 * Named columns, defined once: each file the reporting read model produces declares its columns
 * here with a name, a type and a meaning, and the headers, the cells and the research package's
 * codebook are all taken from these definitions.
 */

/** How a column's values are written (the codebook's "type"). */
export type ColumnType = 'person' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'category' | 'text' | 'list';

/** One column of a file, as the codebook describes it. */
export interface ColumnDef {
  name: string;
  type: ColumnType;
  meaning: string;
  /** The values it may take, in words ("" when any value of its type). */
  allowed?: string;
}

/** One CSV file of the research package. */
export interface FileDef {
  /** The file's name without `.csv` (and its key in the row counts). */
  name: string;
  meaning: string;
  columns: readonly ColumnDef[];
}

/** How a summary column stands to the original system's file (reference §4). */
export type SinceOriginal = 'same' | 'changed' | 'added';

/** A column of a summary CSV: its definition and how its cell is read from a row. */
export interface SummaryColumn<R> extends ColumnDef {
  /** `same`: as the original wrote it; the codebook lists the `changed` and `added` ones. */
  since: SinceOriginal;
  cell: (row: R) => string | number;
}

/** A summary CSV of the portal (one row per portfolio). */
export interface SummaryFile<R> {
  /** The file's name as downloaded. */
  fileName: string;
  columns: readonly SummaryColumn<R>[];
}

/** What the codebook reads of a summary CSV: its name and its columns' definitions. */
export interface SummaryFileDef {
  fileName: string;
  columns: readonly (ColumnDef & { since: SinceOriginal })[];
}

/** The header row of a summary CSV. */
export const headerOf = <R>(file: SummaryFile<R>): string[] => file.columns.map((c) => c.name);

/** The cells of one row of a summary CSV, in the header's order. */
const cellsOf = <R>(file: SummaryFile<R>, row: R): (string | number)[] => file.columns.map((c) => c.cell(row));

/** The cells of every row `rows` yields, in the header's order (closing `rows` when the caller stops). */
export async function* summaryCells<R>(
  file: SummaryFile<R>,
  rows: AsyncIterable<R>,
): AsyncGenerator<(string | number)[]> {
  for await (const row of rows) yield cellsOf(file, row);
}

export const TIMESTAMP_WORDS = 'ISO 8601 in UTC, e.g. 2026-03-04T15:20:00.000Z';
export const LIST_SEPARATOR = ' | ';

/** The pair of columns of a row that is of either a personal artifact or a shared artifact. */
export const EITHER_ARTIFACT_COLUMNS: readonly ColumnDef[] = [
  {
    name: 'artifact_id',
    type: 'integer',
    meaning: 'The personal artifact (artifacts.csv); empty for a shared artifact.',
    allowed: 'an id, or empty',
  },
  {
    name: 'shared_artifact_id',
    type: 'integer',
    meaning: 'The shared artifact (shared_artifacts.csv); empty for a personal artifact.',
    allowed: 'an id, or empty',
  },
];
