import { splitStatements } from './migrate.ts';

/**
 * Statements that leave every existing row as it was: they add tables, columns, indexes,
 * constraints, functions or comments, or drop an index, a constraint or a trigger (never a row or
 * a column). Anything else (UPDATE, DELETE, TRUNCATE, DROP TABLE or COLUMN, a changed column type,
 * a rename, a DO block, an INSERT into a table that already existed, an INSERT that copies existing
 * rows into a new table) may change existing data.
 */
const KEEPS_DATA = [
  /^CREATE\s+(UNIQUE\s+)?INDEX\b/i,
  /^CREATE\s+(UNLOGGED\s+)?TABLE\b/i,
  /^CREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|PROCEDURE|TRIGGER|VIEW|TYPE|SEQUENCE|EXTENSION|SCHEMA|DOMAIN)\b/i,
  /^COMMENT\s+ON\b/i,
  /^DROP\s+(INDEX|TRIGGER|FUNCTION|VIEW)\b/i,
  /^(GRANT|REVOKE)\b/i,
];

/** What an `ALTER TABLE` may do and keep every row: add, drop a constraint, change a default or a NOT NULL. */
const KEEPS_DATA_ALTERATION = [
  /^ADD\s+(COLUMN\s+|CONSTRAINT\s+|PRIMARY\s+KEY\b|UNIQUE\b|CHECK\b|FOREIGN\s+KEY\b)/i,
  /^ADD\s+(?!COLUMN\b|CONSTRAINT\b)[a-z_][a-z0-9_]*\s/i,
  /^DROP\s+CONSTRAINT\b/i,
  /^ALTER\s+(COLUMN\s+)?[a-z_][a-z0-9_]*\s+(SET|DROP)\s+(DEFAULT|NOT\s+NULL)\b/i,
  /^VALIDATE\s+CONSTRAINT\b/i,
  /^(ENABLE|DISABLE)\s+TRIGGER\b/i,
];

/**
 * Each character of `text` with whether it stands at the top level: outside parentheses and
 * quotes, and neither a parenthesis nor a quote itself.
 */
function* withLevel(text: string): Generator<[string, boolean]> {
  let depth = 0;
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      yield [ch, false];
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      yield [ch, false];
    } else if (ch === '(' || ch === ')') {
      depth += ch === '(' ? 1 : -1;
      yield [ch, false];
    } else {
      yield [ch, depth === 0];
    }
  }
}

/** Splits `text` at the commas outside parentheses and quotes. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (const [ch, top] of withLevel(text)) {
    if (top && ch === ',') {
      parts.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/** `text` without what stands inside parentheses (sub-queries, column lists) and quotes. */
function topLevelText(text: string): string {
  let out = '';
  for (const [ch, top] of withLevel(text)) if (top) out += ch;
  return out;
}

/**
 * Whether an INSERT copies rows of tables (`INSERT … SELECT … FROM`): the new rows are derived from
 * existing data (a history started from every artifact, say), so a mistake in it is one in data.
 * A constant row (`VALUES`, or a `SELECT` without a `FROM` of its own) copies nothing.
 */
const copiesRows = (insert: string) => /\bSELECT\b[\s\S]*\bFROM\b/i.test(topLevelText(insert));

/** The table an INSERT, CREATE TABLE or ALTER TABLE names (without its schema or quotes). */
function tableName(name: string): string {
  return name.replace(/"/g, '').split('.').at(-1)!.toLowerCase();
}

/**
 * Whether the migration `sql` may change or remove data that already exists in the database (and
 * so the server backs the database up before applying it: decision 041). Judged statement by
 * statement: only statements known to keep every existing row (`KEEPS_DATA`, an ALTER TABLE of
 * `KEEPS_DATA_ALTERATION`, an INSERT of constant rows into a table the same migration creates) do
 * not count, so an unknown kind of statement counts as a change.
 */
export function changesExistingData(sql: string): boolean {
  const created = new Set<string>();
  for (const statement of splitStatements(sql)) {
    const text = statement.replace(/\s+/g, ' ').trim();
    const newTable = /^CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([^\s(]+)/i.exec(text);
    if (newTable) created.add(tableName(newTable[1]!));
    if (KEEPS_DATA.some((pattern) => pattern.test(text))) continue;
    const insert = /^INSERT\s+INTO\s+([^\s(]+)/i.exec(text);
    if (insert && created.has(tableName(insert[1]!)) && !copiesRows(text)) continue;
    const alter = /^ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?[^\s]+\s+(.*)$/i.exec(text);
    if (alter && !/\bRENAME\b/i.test(alter[1]!)) {
      const actions = topLevelParts(alter[1]!);
      if (actions.every((action) => KEEPS_DATA_ALTERATION.some((pattern) => pattern.test(action)))) continue;
    }
    return true;
  }
  return false;
}
