/**
 * Pure view-model functions of the dashboard: the order of its two portfolio tables (spec §9:
 * date descending by default), the researcher's summary counts and the invitation rows.
 */
import { GRADES } from '../../schemas/catalog.ts';
import type { Invitation } from '../../schemas/invitation.ts';
import type { Portfolio, PortfolioListItem } from '../../schemas/portfolio.ts';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';

export type SortDirection = 'ascending' | 'descending';

/** A table's order. */
export interface Sort<C extends string> {
  column: C;
  direction: SortDirection;
}

/** The sortable columns of My Portfolios. */
export type PortfolioSortColumn = 'name' | 'date' | 'grades' | 'subject' | 'topic' | 'artifacts' | 'template';

/** The sortable columns of Shared Portfolios. */
export type SharedSortColumn = 'name' | 'plcName' | 'date' | 'grades' | 'subject' | 'topic' | 'artifacts' | 'comments';

/** Both tables start newest first. */
export const DEFAULT_SORT = { column: 'date', direction: 'descending' } as const;

/** Columns that start largest first when chosen; text starts A→Z. */
const LARGEST_FIRST: ReadonlySet<string> = new Set(['date', 'artifacts', 'comments']);

/** The order after choosing `column`: the other direction if it was already chosen. */
export function nextSort<C extends string>(current: Sort<C>, column: C): Sort<C> {
  if (current.column === column)
    return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { column, direction: LARGEST_FIRST.has(column) ? 'descending' : 'ascending' };
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
const GRADE_ORDER: readonly string[] = GRADES.map((g) => g.value);
const GRADE_LABELS: ReadonlyMap<string, string> = new Map(GRADES.map((g) => [g.value, g.label]));
const gradeIndex = (code: string): number =>
  GRADE_ORDER.includes(code) ? GRADE_ORDER.indexOf(code) : GRADE_ORDER.length;

/** Grade codes as the tables show them: 'Kindergarten, 1st Grade', in the catalogue's order. */
export function gradeText(grades: readonly string[]): string {
  return [...grades]
    .sort((a, b) => gradeIndex(a) - gradeIndex(b))
    .map((g) => GRADE_LABELS.get(g) ?? g)
    .join(', ');
}

/** What a column compares: a number or a text. */
type SortKey = number | string;

/** Orders rows by one key; equal rows stay newest first (then by id, so the order is stable). */
function sortBy<T extends { id: number; created_at: string }>(
  rows: readonly T[],
  key: (row: T) => SortKey,
  direction: SortDirection,
): T[] {
  const sign = direction === 'ascending' ? 1 : -1;
  const compare = (a: SortKey, b: SortKey): number =>
    typeof a === 'number' && typeof b === 'number' ? a - b : collator.compare(String(a), String(b));
  const newestFirst = (a: T, b: T): number => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id;
  return [...rows].sort((a, b) => sign * compare(key(a), key(b)) || newestFirst(a, b));
}

/** A portfolio without grades sorts after every grade. */
const lowestGrade = (grades: readonly string[]): number => Math.min(GRADE_ORDER.length, ...grades.map(gradeIndex));

const PORTFOLIO_KEYS: Record<PortfolioSortColumn, (p: PortfolioListItem) => SortKey> = {
  name: (p) => p.name,
  date: (p) => Date.parse(p.created_at),
  grades: (p) => lowestGrade(p.grades),
  subject: (p) => p.subject ?? '',
  topic: (p) => p.topic ?? '',
  artifacts: (p) => p.artifacts.length,
  template: (p) => p.template,
};

/** My Portfolios in the chosen order (a new list). */
export function sortPortfolios(
  rows: readonly PortfolioListItem[],
  sort: Sort<PortfolioSortColumn>,
): PortfolioListItem[] {
  return sortBy(rows, PORTFOLIO_KEYS[sort.column], sort.direction);
}

const SHARED_KEYS: Record<SharedSortColumn, (p: SharedPortfolioListItem) => SortKey> = {
  name: (p) => p.name,
  plcName: (p) => p.plcName ?? '',
  date: (p) => Date.parse(p.created_at),
  grades: (p) => lowestGrade(p.grades),
  subject: (p) => p.subject ?? '',
  topic: (p) => p.topic ?? '',
  artifacts: (p) => p.sharedArtifacts.length,
  comments: (p) => p.commentCount,
};

/** Shared Portfolios in the chosen order (a new list). */
export function sortSharedPortfolios(
  rows: readonly SharedPortfolioListItem[],
  sort: Sort<SharedSortColumn>,
): SharedPortfolioListItem[] {
  return sortBy(rows, SHARED_KEYS[sort.column], sort.direction);
}

/** The researcher's Teacher Portfolio Summary. */
export interface PortfolioSummary {
  portfolios: number;
  artifacts: number;
  comments: number;
  teachers: number;
}

/**
 * Counts over the shared portfolios (reference §13): their number, their artifacts, their
 * comments, and the distinct members across all of them.
 */
export function summarize(shared: readonly SharedPortfolioListItem[]): PortfolioSummary {
  const members = new Set<number>();
  let artifacts = 0;
  let comments = 0;
  for (const portfolio of shared) {
    artifacts += portfolio.sharedArtifacts.length;
    comments += portfolio.commentCount;
    for (const member of portfolio.members) members.add(member.id);
  }
  return { portfolios: shared.length, artifacts, comments, teachers: members.size };
}

/** An invitation the table can show: one whose shared portfolio still exists. */
export type InvitationRow = Invitation & { sharedPortfolio: NonNullable<Invitation['sharedPortfolio']> };

/** The invitations to list, newest first; any whose shared portfolio is gone is skipped. */
export function invitationRows(invitations: readonly Invitation[]): InvitationRow[] {
  // Older servers may send an invitation whose shared portfolio was deleted.
  const present = invitations.filter((i): i is InvitationRow => {
    const portfolio = i.sharedPortfolio as Invitation['sharedPortfolio'] | null | undefined;
    return portfolio !== null && portfolio !== undefined;
  });
  return sortBy(present, (i) => Date.parse(i.created_at), 'descending');
}

/** A created portfolio as the list shows it. */
export function listItemOf(portfolio: Portfolio): PortfolioListItem {
  return {
    ...portfolio,
    artifacts: portfolio.artifacts.map(({ id, parkingLot, created_at, updated_at }) => ({
      id,
      parkingLot,
      created_at,
      updated_at,
    })),
  };
}
