/** The types of the artifact browser's machine (`portfolioBrowserMachine.ts`). */
import type { UiError } from '../../services/errors.ts';
import type { DiscussionChange } from '../sharedArtifactDiscussion/discussionSelectors.ts';
import {
  defaultSort,
  NO_FILTERS,
  type ArtifactRow,
  type BrowsedPortfolio,
  type BrowsedPortfolioListItem,
  type BrowserMode,
  type Filters,
  type Sort,
  type SortColumn,
} from './selectors.ts';

export interface PortfolioBrowserInput {
  mode: BrowserMode;
  /** Researchers: whose portfolios are browsed. `null`: the caller's own. */
  owner: number | null;
  /** The portfolio in the address, if any. */
  portfolioId: number | null;
  /** The artifact in the address, if any. */
  artifactId: number | null;
  /** Who is browsing (their own shared artifacts match 'My Artifacts'). */
  viewerId?: number | null;
}

export interface PortfolioBrowserContext {
  mode: BrowserMode;
  owner: number | null;
  viewerId: number | null;
  /** The selector's portfolios, by name. */
  portfolios: BrowsedPortfolioListItem[];
  portfolioId: number | null;
  artifactId: number | null;
  /** The artifact just closed with Back to artifacts (its row takes the focus back). */
  closedArtifactId: number | null;
  /** The chosen portfolio, once loaded. */
  portfolio: BrowsedPortfolio | null;
  /** The portfolio of the address as fetched beside the list (until it is shown). */
  early: BrowsedPortfolio | null;
  /** Its artifacts as table rows (search text computed once). */
  rows: ArtifactRow[];
  search: string;
  filters: Filters;
  sort: Sort;
  error: UiError | null;
}

/** The browser as it opens: the address's portfolio and artifact chosen, nothing fetched yet. */
export function initialContext(input: PortfolioBrowserInput): PortfolioBrowserContext {
  return {
    mode: input.mode,
    owner: input.owner,
    viewerId: input.viewerId ?? null,
    portfolios: [],
    portfolioId: input.portfolioId,
    artifactId: input.artifactId,
    closedArtifactId: null,
    portfolio: null,
    early: null,
    rows: [],
    search: '',
    filters: NO_FILTERS,
    sort: defaultSort(input.mode),
    error: null,
  };
}

export type PortfolioBrowserEvent =
  | { type: 'portfolio.select'; portfolioId: number }
  | { type: 'route.change'; portfolioId: number | null; artifactId: number | null }
  | { type: 'artifact.select'; artifactId: number }
  /** Back to the table (where the chosen artifact takes the table's place). */
  | { type: 'artifact.close' }
  | { type: 'artifact.create' }
  | { type: 'artifact.deleted'; artifactId: number }
  /** A shared artifact was deleted in its pane: its row leaves the table, the pane stays (it says so). */
  | { type: 'artifact.removed'; artifactId: number }
  /** The viewer commented or reacted on a shared artifact: its row as the portfolio would answer now. */
  | { type: 'discussion.changed'; change: DiscussionChange }
  /** The viewer left this shared portfolio. */
  | { type: 'portfolio.left'; portfolioId: number }
  | { type: 'search.change'; text: string }
  | { type: 'filter.toggle'; key: string; value: string }
  /** The recent filter on or off; `at` is when the user asked (the last 7 days count from then). */
  | { type: 'filter.recent'; on: boolean; at: number }
  | { type: 'filters.clear' }
  | { type: 'sort.change'; column: SortColumn }
  | { type: 'retry' };
