import type { Queryable } from '../../db/client.ts';
import type { ResearchExportFilters } from '#schemas/researchExport';
import { TEMPLATE_PORTFOLIO_ID } from '#schemas/catalog';
import { ROLE_IDS } from '#schemas/user';
import { byId, keysetRows } from './keyset.ts';

// What one research export reads before its files: the people a text must not name, the
// selection its filters make (temporary tables of its transaction), and the names and template
// its README and codebook quote.

/** Rows read per statement: memory stays flat whatever the size of the data. */
export const PAGE = 250;

/** Bounds of the date filter: `from` inclusive, `until` exclusive (both UTC); `null` when open. */
export interface CreatedRange {
  from: Date | null;
  until: Date | null;
}

/** The range test on `column` for page statements (`$3`, `$4`: the range's bounds). */
export const inRange = (column: string, from = '$3', until = '$4') =>
  `(${from}::timestamptz IS NULL OR ${column} >= ${from}) AND (${until}::timestamptz IS NULL OR ${column} < ${until})`;
export const rangeParams = (range: CreatedRange) => [range.from, range.until];

/** An account as a de-identified text must not name it. */
export interface Person {
  id: number;
  username: string;
  email: string;
}

/** Every account's id, name and address (the people a de-identified text must not name). */
export function allPeople(db: Queryable): AsyncGenerator<Person> {
  return keysetRows(
    (after) =>
      db
        .query<Person>('SELECT id, username, email FROM users WHERE id > $1 ORDER BY id LIMIT $2', [after, PAGE])
        .then((r) => r.rows),
    byId<Person>(PAGE),
  );
}

/**
 * Opens the export's selection inside the caller's transaction: temporary tables (dropped at its
 * end) of the selected people, shared portfolios and shared artifacts, so that every page
 * statement below joins on them.
 */
export async function selectForExport(
  tx: Queryable,
  filters: ResearchExportFilters,
  range: CreatedRange,
): Promise<void> {
  const teachers = filters.teachers && filters.teachers.length > 0 ? filters.teachers : null;
  const sps = filters.sharedPortfolios && filters.sharedPortfolios.length > 0 ? filters.sharedPortfolios : null;
  await tx.query('CREATE TEMP TABLE export_people (id integer PRIMARY KEY) ON COMMIT DROP');
  await tx.query(
    `INSERT INTO export_people SELECT u.id FROM users u
     WHERE u.role_id IN ($3, $4)
       AND ($1::int[] IS NULL OR u.id = ANY($1))
       AND ($2::int[] IS NULL OR EXISTS (SELECT 1 FROM shared_portfolio_members m WHERE m.user_id = u.id AND m.shared_portfolio_id = ANY($2)))`,
    [teachers, sps, ROLE_IDS.teacher, ROLE_IDS.plcLead],
  );
  await tx.query('CREATE TEMP TABLE export_sps (id integer PRIMARY KEY) ON COMMIT DROP');
  await tx.query(
    `INSERT INTO export_sps SELECT sp.id FROM shared_portfolios sp
     WHERE ($1::int[] IS NULL OR sp.id = ANY($1))
       AND ($2::boolean IS FALSE OR EXISTS (SELECT 1 FROM shared_portfolio_members m JOIN export_people p ON p.id = m.user_id WHERE m.shared_portfolio_id = sp.id))`,
    [sps, teachers !== null],
  );
  await tx.query('CREATE TEMP TABLE export_sas (id integer PRIMARY KEY) ON COMMIT DROP');
  await tx.query(
    `INSERT INTO export_sas SELECT sa.id FROM shared_artifacts sa
     WHERE sa.shared_portfolio_id IN (SELECT id FROM export_sps) AND sa.owner_id IN (SELECT id FROM export_people) AND ${inRange('sa.created_at', '$1', '$2')}`,
    rangeParams(range),
  );
  await tx.query('ANALYZE export_people; ANALYZE export_sps; ANALYZE export_sas');
}

/** Names of some users and shared portfolios, in the order of their ids (for a package's README). */
export async function namesOf(db: Queryable, userIds: readonly number[], sharedPortfolioIds: readonly number[]) {
  const users = await db.query<{ id: number; username: string }>(
    'SELECT id, username FROM users WHERE id = ANY($1::int[]) ORDER BY id',
    [userIds],
  );
  const sps = await db.query<{ id: number; name: string }>(
    'SELECT id, name FROM shared_portfolios WHERE id = ANY($1::int[]) ORDER BY id',
    [sharedPortfolioIds],
  );
  return { users: users.rows, sharedPortfolios: sps.rows };
}

/** The Basic template's structure. */
export async function templateStructure(tx: Queryable): Promise<unknown> {
  const { rows } = await tx.query<{ structure: unknown }>('SELECT structure FROM portfolios WHERE id = $1', [
    TEMPLATE_PORTFOLIO_ID,
  ]);
  return rows[0]?.structure ?? [];
}
