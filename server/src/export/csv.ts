import { once } from 'node:events';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from '../http/contentDisposition.ts';

/**
 * Neutralises a cell a spreadsheet would run as a formula (`= + - @`, tab, carriage return):
 * such text gets a leading apostrophe. Numbers stay numbers.
 */
export function escapeCell(value: string | number): string | number {
  if (typeof value === 'number') return value;
  // Spreadsheets read full-width forms (＝, ＋, －, ＠) and leading spaces as the formula they spell.
  return /^[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFE63\u2212\uFF20]|^[\t\r\n]/.test(value) ? `'${value}` : value;
}

/**
 * Streams a CSV download: the header, then every row the generator yields, written as they come
 * (the generator reads the database in batches, so memory stays flat at any size). When `signal`
 * fires (the client went away) the rows are no longer asked for and the generator is closed.
 */
export function sendCsv(
  reply: FastifyReply,
  fileName: string,
  header: readonly string[],
  rows: AsyncIterable<readonly (string | number)[]>,
  signal?: AbortSignal,
): FastifyReply {
  const csv = stringify({ header: true, columns: [...header], record_delimiter: '\n' });
  void (async () => {
    try {
      for await (const row of rows) {
        if (!csv.write(row.map(escapeCell))) await once(csv, 'drain', signal ? { signal } : {});
      }
      csv.end();
    } catch (error) {
      csv.destroy(error as Error);
    }
  })();
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', contentDisposition('attachment', fileName))
    .header('cache-control', 'no-store')
    .send(csv);
}

/** The original's date form in CSV files: `4/5/2022, 3:04:05 PM` (server time zone). */
export function csvDate(value: Date | string): string {
  return new Date(value).toLocaleString('en-US');
}
