/**
 * Pure functions of the artifact browser (personal and shared portfolios): the rows of the
 * artifacts table (with a search index computed once per artifact), the Filter By groups of a
 * portfolio, and filtering, searching and sorting of the rows. Filtering works on lists that are
 * already sorted, so a keystroke in the search box never re-sorts.
 */
import type { Artifact } from '../../schemas/artifact.ts';
import { GRADE_CODES, GRADES, REACTIONS, RECENT_DAYS, UNNAMED_ARTIFACT } from '../../schemas/catalog.ts';
import type { ArtifactBrief, PortfolioListItem, PortfolioSummary } from '../../schemas/portfolio.ts';
import type {
  SharedArtifactBrief,
  SharedPortfolioListItem,
  SharedPortfolioSummary,
} from '../../schemas/sharedPortfolio.ts';
import { STANDARDS_ALIASES, STANDARDS_PANELS, type StandardsPanel } from '../../schemas/standards.ts';
import { RESERVED_KEYS, type ResponseValue, type Structure } from '../../schemas/structure.ts';

/**
 * An artifact of the browser's table, in brief: a personal one (read whole when opened, see
 * `isWholeArtifact`), or a shared portfolio's (read whole with its discussion when opened).
 */
export type BrowsedArtifact = ArtifactBrief | SharedArtifactBrief;

/** A portfolio the browser shows, with its artifacts in brief: a personal one, or a shared one. */
export type BrowsedPortfolio = PortfolioSummary | SharedPortfolioSummary;

/** A portfolio of the selector. */
export type BrowsedPortfolioListItem = PortfolioListItem | SharedPortfolioListItem;

/** Whether the artifact belongs to a shared portfolio. */
export const isSharedArtifact = (artifact: BrowsedArtifact): artifact is SharedArtifactBrief =>
  'sharedPortfolio' in artifact;

/** Whether a personal artifact of the table is already whole (its structure and files are there). */
export const isWholeArtifact = (artifact: ArtifactBrief): artifact is Artifact =>
  'structure' in artifact && 'images' in artifact;

/** Whether the portfolio is a shared one. */
export const isSharedPortfolio = (portfolio: BrowsedPortfolio): portfolio is SharedPortfolioSummary =>
  'sharedArtifacts' in portfolio;

/** The artifacts of a personal or shared portfolio. */
export const artifactsOf = (portfolio: BrowsedPortfolio): readonly BrowsedArtifact[] =>
  isSharedPortfolio(portfolio) ? portfolio.sharedArtifacts : portfolio.artifacts;

/** One artifact as the table shows it, with what filtering and sorting need. */
export interface ArtifactRow {
  id: number;
  artifact: BrowsedArtifact;
  /** The title, or '(Unnamed)'. */
  name: string;
  author: string;
  /** `created_at` in milliseconds. */
  createdAt: number;
  parkingLot: boolean;
  comments: number;
  /** Every response value and comment text, lower-cased, separated so no match spans two values. */
  searchText: string;
  /** The values of each response as Filter By matches them (standards under their web label). */
  filterValues: Readonly<Record<string, readonly string[]>>;
}

const SEPARATOR = '\u0000';

/** The values of one response as a list of strings (a list's items; a number as text). */
function responseStrings(value: ResponseValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  return [String(value)];
}

/** The artifact's title: its `artifactName` response, or '(Unnamed)'. */
export function artifactName(artifact: Pick<Artifact, 'responses'>): string {
  const name = artifact.responses[RESERVED_KEYS.title];
  return typeof name === 'string' && name.trim() !== '' ? name : UNNAMED_ARTIFACT;
}

/** The lower-cased text keyword search looks in: every response value (list items too) and every comment. */
export function searchTextOf(artifact: Pick<Artifact, 'responses' | 'commentTexts'>): string {
  const parts: string[] = [];
  for (const value of Object.values(artifact.responses)) parts.push(...responseStrings(value));
  parts.push(...artifact.commentTexts);
  return parts.join(SEPARATOR).toLowerCase();
}

/** Mobile apps store a few standards under other labels; matching treats them as the web label. */
const normalise = (value: string): string => STANDARDS_ALIASES[value] ?? value;

/**
 * Filter By keys of a shared portfolio's own filters (reference §10.4). They cannot clash with
 * question keys, which never start with '@'.
 */
export const SHARED_FILTER_KEYS = { showOnly: '@showOnly', grade: '@grade', reactions: '@reactions' } as const;

/** The one choice of 'Show Only': the viewer's own artifacts. */
export const MY_ARTIFACTS = 'My Artifacts';

/** The values Filter By compares, per response key (and, for a shared artifact, its own filters). */
function filterValuesOf(artifact: BrowsedArtifact, viewerId: number | null): Record<string, readonly string[]> {
  const values: Record<string, readonly string[]> = {};
  for (const [key, value] of Object.entries(artifact.responses)) values[key] = responseStrings(value).map(normalise);
  if (isSharedArtifact(artifact)) {
    values[SHARED_FILTER_KEYS.showOnly] = viewerId !== null && artifact.owner.id === viewerId ? [MY_ARTIFACTS] : [];
    values[SHARED_FILTER_KEYS.grade] = artifact.portfolioGrades;
    values[SHARED_FILTER_KEYS.reactions] = Object.entries(artifact.reactions)
      .filter(([, present]) => present)
      .map(([value]) => value);
  }
  return values;
}

/**
 * A table row for an artifact (computed once, when the portfolio arrives). `viewerId` is who is
 * looking: their own shared artifacts match 'My Artifacts'.
 */
export function toRow(artifact: BrowsedArtifact, viewerId: number | null = null): ArtifactRow {
  return {
    id: artifact.id,
    artifact,
    name: artifactName(artifact),
    author: artifact.ownerUsername,
    createdAt: Date.parse(artifact.created_at),
    parkingLot: artifact.parkingLot,
    comments: artifact.commentCount,
    searchText: searchTextOf(artifact),
    filterValues: filterValuesOf(artifact, viewerId),
  };
}

/** The rows of a portfolio's artifacts, as `viewerId` sees them. */
export const toRows = (artifacts: readonly BrowsedArtifact[], viewerId: number | null = null): ArtifactRow[] =>
  artifacts.map((artifact) => toRow(artifact, viewerId));

// ---------------------------------------------------------------------------------------------
// Filter By

/** One group of the Filter By panel: a question and the values it can be filtered by. */
export interface FilterGroup {
  /** The response key the values are matched against. */
  key: string;
  /** The question text (or the standards heading). */
  label: string;
  /** For a choice question: its choices. */
  choices: readonly string[];
  /** For the standards question: the panels of items. */
  panels?: readonly StandardsPanel[];
  /**
   * Choices that are symbols (the reaction emoji): what each means, shown beside it and used as
   * its accessible name.
   */
  meanings?: Readonly<Record<string, string>>;
  /** Choices stored as codes (grades): how each reads ('K' → 'Kindergarten'). */
  labels?: Readonly<Record<string, string>>;
}

/** The label of the standards group in Filter By (reference §10.3). */
export const STANDARDS_FILTER_LABEL = 'Standards or Elements of Framework';

/** The label of the recent filter (spec §5, §9). */
export const RECENT_FILTER_LABEL = `Added in the last ${RECENT_DAYS} days`;

/** The reaction emoji with their meanings (spec §9). */
export const REACTION_MEANINGS: Readonly<Record<string, string>> = Object.fromEntries(
  REACTIONS.map((r) => [r.value, r.meaning]),
);

/** A shared portfolio's own Filter By groups: Show Only, Grade and Has Reactions (reference §10.4). */
export const SHARED_FILTER_GROUPS: readonly FilterGroup[] = [
  { key: SHARED_FILTER_KEYS.showOnly, label: 'Show Only', choices: [MY_ARTIFACTS] },
  {
    key: SHARED_FILTER_KEYS.grade,
    label: 'Grade',
    choices: GRADE_CODES,
    labels: Object.fromEntries(GRADES.map((g) => [g.value, g.label])),
  },
  {
    key: SHARED_FILTER_KEYS.reactions,
    label: 'Has Reactions',
    choices: REACTIONS.map((r) => r.value),
    meanings: REACTION_MEANINGS,
  },
];

/** How a chosen filter value reads (a reaction with its meaning, a grade by its name). */
export function filterValueLabel(key: string, value: string): string {
  const meaning = key === SHARED_FILTER_KEYS.reactions ? REACTION_MEANINGS[value] : undefined;
  if (meaning) return `${value} ${meaning}`;
  return key === SHARED_FILTER_KEYS.grade ? (GRADES.find((g) => g.value === value)?.label ?? value) : value;
}

/**
 * The Filter By groups of a portfolio: (shared portfolios) Show Only, Grade and Has Reactions,
 * then every single-selection and multiple-response question with its choices, then the
 * standards panels.
 */
export function filterGroups(structure: Structure, shared = false): FilterGroup[] {
  const groups: FilterGroup[] = [...(shared ? SHARED_FILTER_GROUPS : [])];
  groups.push(
    ...structure
      .filter((q) => (q.type === 'singleSelection' || q.type === 'multipleResponse') && (q.choices?.length ?? 0) > 0)
      .map((q) => ({ key: q.key, label: q.text, choices: q.choices ?? [] })),
  );
  groups.push({
    key: RESERVED_KEYS.standards,
    label: STANDARDS_FILTER_LABEL,
    choices: STANDARDS_PANELS.flatMap((p) => p.sections.flatMap((s) => s.items)),
    panels: STANDARDS_PANELS,
  });
  return groups;
}

/**
 * The chosen filters: values per response key, and (recent filter on) the moment from which an
 * artifact counts as recent, fixed when the filter was turned on.
 */
export interface Filters {
  values: Readonly<Record<string, readonly string[]>>;
  recentSince: number | null;
}

export const NO_FILTERS: Filters = { values: {}, recentSince: null };

/** Adds the value to the key's choices, or removes it if it was chosen. */
export function toggleFilter(filters: Filters, key: string, value: string): Filters {
  const current = filters.values[key] ?? [];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  const values = { ...filters.values };
  if (next.length > 0) values[key] = next;
  else delete values[key];
  return { ...filters, values };
}

/** How many filters are chosen. */
export function activeFilterCount(filters: Filters): number {
  return Object.values(filters.values).reduce((n, list) => n + list.length, 0) + (filters.recentSince !== null ? 1 : 0);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** From when an artifact counts as recent, seen at `now`: the last 7 days. */
export const recentSince = (now: number): number => now - RECENT_DAYS * DAY_MS;

/** The filters with the recent filter on (as of `now`) or off. */
export function setRecentFilter(filters: Filters, on: boolean, now: number): Filters {
  return { ...filters, recentSince: on ? recentSince(now) : null };
}

/** Whether a row passes the filters: AND across keys, OR within one key's chosen values. */
export function matchesFilters(row: ArtifactRow, filters: Filters): boolean {
  if (filters.recentSince !== null && row.createdAt < filters.recentSince) return false;
  for (const [key, chosen] of Object.entries(filters.values)) {
    if (chosen.length === 0) continue;
    const values = row.filterValues[key];
    if (!values || !chosen.some((c) => values.includes(c))) return false;
  }
  return true;
}

/** The words of a search (lower-cased); an artifact matches when its text contains every one. */
export function searchTerms(search: string): string[] {
  return search.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Whether a row contains every search term. */
export function matchesSearch(row: ArtifactRow, terms: readonly string[]): boolean {
  for (const term of terms) if (!row.searchText.includes(term)) return false;
  return true;
}

/** The rows that pass the filters and the search, in the order given. */
export function filterRows(rows: readonly ArtifactRow[], filters: Filters, search: string): readonly ArtifactRow[] {
  const terms = searchTerms(search);
  const filtering = filters.recentSince !== null || Object.keys(filters.values).length > 0;
  if (!filtering && terms.length === 0) return rows;
  return rows.filter((row) => (!filtering || matchesFilters(row, filters)) && matchesSearch(row, terms));
}

// ---------------------------------------------------------------------------------------------
// Sorting

export type SortColumn = 'name' | 'parkingLot' | 'author' | 'date' | 'comments';
export type SortDirection = 'ascending' | 'descending';

/** The table's order. */
export interface Sort {
  column: SortColumn;
  direction: SortDirection;
}

/**
 * What is browsed: a teacher's or lead's own portfolios, a teacher's portfolios by a researcher
 * (read-only), or shared portfolios.
 */
export type BrowserMode = 'personal' | 'researcher' | 'shared';

/** Parking-lot items first, then newest, in personal views; newest first otherwise (spec §9). */
export function defaultSort(mode: BrowserMode): Sort {
  return mode === 'personal'
    ? { column: 'parkingLot', direction: 'descending' }
    : { column: 'date', direction: 'descending' };
}

/** The direction a column starts in when first chosen: text A→Z, the rest largest first. */
const FIRST_DIRECTION: Record<SortColumn, SortDirection> = {
  name: 'ascending',
  author: 'ascending',
  parkingLot: 'descending',
  date: 'descending',
  comments: 'descending',
};

/** The order after choosing `column`: the other direction if it was already chosen. */
export function nextSort(current: Sort, column: SortColumn): Sort {
  if (current.column === column)
    return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { column, direction: FIRST_DIRECTION[column] };
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Newest first, then the higher id: the tie-break of every order. */
const newestFirst = (a: ArtifactRow, b: ArtifactRow): number => b.createdAt - a.createdAt || b.id - a.id;

function compareBy(column: SortColumn): (a: ArtifactRow, b: ArtifactRow) => number {
  switch (column) {
    case 'name':
      return (a, b) => collator.compare(a.name, b.name);
    case 'author':
      return (a, b) => collator.compare(a.author, b.author);
    case 'parkingLot':
      return (a, b) => Number(a.parkingLot) - Number(b.parkingLot);
    case 'comments':
      return (a, b) => a.comments - b.comments;
    default:
      return (a, b) => a.createdAt - b.createdAt;
  }
}

/** The rows in the chosen order (a new list); equal rows stay newest first. */
export function sortRows(rows: readonly ArtifactRow[], sort: Sort): ArtifactRow[] {
  const compare = compareBy(sort.column);
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => sign * compare(a, b) || newestFirst(a, b));
}

// ---------------------------------------------------------------------------------------------
// Portfolios

const byName = (a: Pick<BrowsedPortfolioListItem, 'id' | 'name'>, b: Pick<BrowsedPortfolioListItem, 'id' | 'name'>) =>
  collator.compare(a.name, b.name) || a.id - b.id;

/** The portfolio selector's order: by name. */
export function sortPortfoliosByName<T extends Pick<BrowsedPortfolioListItem, 'id' | 'name'>>(
  portfolios: readonly T[],
): T[] {
  return [...portfolios].sort(byName);
}

const GRADE_LABELS: ReadonlyMap<string, string> = new Map(GRADES.map((g) => [g.value, g.label]));

/** Grade codes as the summary shows them ('K' → 'Kindergarten'), in the catalogue's order. */
export function gradeLabels(grades: readonly string[]): string[] {
  const order = GRADES.map((g) => g.value as string);
  return [...grades]
    .sort(
      (a, b) => (order.indexOf(a) === -1 ? 99 : order.indexOf(a)) - (order.indexOf(b) === -1 ? 99 : order.indexOf(b)),
    )
    .map((g) => GRADE_LABELS.get(g) ?? g);
}

/** The portfolio without one of its artifacts. */
export function withoutArtifact(portfolio: BrowsedPortfolio, artifactId: number): BrowsedPortfolio {
  return isSharedPortfolio(portfolio)
    ? { ...portfolio, sharedArtifacts: portfolio.sharedArtifacts.filter((a) => a.id !== artifactId) }
    : { ...portfolio, artifacts: portfolio.artifacts.filter((a) => a.id !== artifactId) };
}
