import { memo, useId, type ReactNode } from 'react';
import { Link } from 'wouter';
import styled from 'styled-components';
import {
  useBrowserError,
  useBrowserEvents,
  useBrowserMode,
  useBrowserStatus,
  useCanCreateArtifact,
  useCompareRef,
  useCreatingArtifact,
  usePortfolio,
  usePortfolioList,
  useSearchText,
  useSelectedPortfolioId,
} from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import { isSharedPortfolio } from '../../machines/portfolioBrowser/selectors.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Input, Label } from '../components/Field.tsx';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { paths } from '../paths.ts';
import { SharedPortfolioSummary } from '../shared/browser/SharedPortfolioSummary.tsx';
import { ArtifactsArea } from './ArtifactsArea.tsx';
import { ActiveFilters } from './ActiveFilters.tsx';
import { FilterBy } from './FilterBy.tsx';
import { Hint, Problem } from './Notices.tsx';
import { PortfolioSummary } from './PortfolioSummary.tsx';
import { theme } from '../theme/theme.ts';
import { lazyPart } from '../components/lazyParts.tsx';

// The coverage map loads when its section first shows (decision 056).
const CoverageSection = lazyPart(() => import('../coverage/CoverageSection.tsx'), 'CoverageSection', null);

/** The message for a portfolio that does not exist or is not the viewer's (spec §5, §8). */
export const PORTFOLIO_NOT_FOUND = 'Portfolio not found.';

/** The message for a shared portfolio that does not exist or that the viewer may not see (spec §5). */
export const SHARED_PORTFOLIO_NOT_FOUND = 'Shared portfolio not found.';

/** The row of selects (and the search) above the portfolio. */
export const Controls = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: 0 ${theme.space.md};
  margin-bottom: ${theme.space.sm};
  & > * {
    flex: 1 1 220px;
    max-width: 360px;
  }
  & > button {
    flex: 0 0 auto;
    margin-bottom: ${theme.space.md};
  }
`;

const SearchWrap = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xs};
  margin-bottom: ${theme.space.md};
`;

/** The portfolio selector: the viewer's (or the teacher's, or the shared) portfolios by name. */
function PortfolioSelect() {
  const shared = useBrowserMode() === 'shared';
  const portfolios = usePortfolioList();
  const selected = useSelectedPortfolioId();
  const { selectPortfolio } = useBrowserEvents();
  return (
    <SelectField
      label={shared ? 'Select Shared Portfolio' : 'Select Portfolio'}
      placeholder={shared ? 'Select a shared portfolio' : 'Select a portfolio'}
      options={portfolios.map((p) => ({ value: String(p.id), label: p.name }))}
      value={selected === null ? '' : String(selected)}
      onChange={(event) => {
        if (event.target.value) selectPortfolio(Number(event.target.value));
      }}
    />
  );
}

/** Keyword search over every answer and comment of the portfolio's artifacts. */
function KeywordSearch() {
  const id = useId();
  const text = useSearchText();
  const { search } = useBrowserEvents();
  return (
    <SearchWrap role="search">
      <Label htmlFor={id}>Search artifacts</Label>
      <Input
        id={id}
        type="search"
        placeholder="Keyword"
        value={text}
        onChange={(event) => search(event.target.value)}
      />
    </SearchWrap>
  );
}

/** 'Create New Artifact' (the viewer's own portfolio): a parking-lot artifact, then its edit page. */
export function CreateArtifactButton() {
  const can = useCanCreateArtifact();
  const busy = useCreatingArtifact();
  const { createArtifact } = useBrowserEvents();
  if (!can) return null;
  return (
    <BusyButton type="button" busy={busy} busyLabel="Creating a new artifact…" onClick={createArtifact}>
      Create New Artifact
    </BusyButton>
  );
}

function NoSharedPortfolioYet() {
  const user = useCurrentUser();
  const portfolios = usePortfolioList();
  if (portfolios.length > 0) return <Hint>Choose a shared portfolio to see its artifacts.</Hint>;
  return (
    <Hint>
      {user?.abilities.readAllSharedPortfolios
        ? 'There are no shared portfolios yet.'
        : 'You are not a member of any shared portfolio yet.'}{' '}
      {user?.abilities.createSharedPortfolio ? (
        <Link href={paths.sharedPortfolioNew}>Create a shared portfolio.</Link>
      ) : null}
    </Hint>
  );
}

function NoPortfolioYet() {
  const mode = useBrowserMode();
  const portfolios = usePortfolioList();
  if (mode === 'shared') return <NoSharedPortfolioYet />;
  if (portfolios.length > 0) return <Hint>Choose a portfolio to see its artifacts.</Hint>;
  if (mode === 'researcher') return <Hint>This teacher has no portfolios yet.</Hint>;
  return (
    <Hint>
      You have no portfolios yet. <Link href={paths.dashboard}>Add one on the dashboard.</Link>
    </Hint>
  );
}

/**
 * The artifact browser of My Portfolios, Teacher Portfolios and Shared Portfolios: the portfolio
 * selector, Filter By, keyword search, the portfolio's summary, its artifacts table with compare
 * mode and the detail pane. `leading` goes before the portfolio selector (the teacher selector).
 */
export const PortfolioBrowser = memo(function PortfolioBrowser({ leading }: { leading?: ReactNode }) {
  const status = useBrowserStatus();
  const mode = useBrowserMode();
  const error = useBrowserError();
  const portfolio = usePortfolio();
  const compare = useCompareRef();
  const { retry } = useBrowserEvents();
  const shared = mode === 'shared';

  if (status === 'listFailed') {
    return (
      <>
        {leading ? <Controls>{leading}</Controls> : null}
        <Problem
          title={shared ? 'The shared portfolios could not be loaded' : 'The portfolios could not be loaded'}
          message={error?.message}
          onRetry={retry}
        />
      </>
    );
  }
  if (status === 'listing') {
    return (
      <>
        {leading ? <Controls>{leading}</Controls> : null}
        <PageSkeleton label={shared ? 'Loading shared portfolios' : 'Loading portfolios'} />
      </>
    );
  }
  const loaded = status === 'loaded' && portfolio !== null;
  return (
    <>
      <Controls>
        {leading}
        <PortfolioSelect />
        {loaded ? <KeywordSearch /> : null}
        {loaded ? <FilterBy /> : null}
      </Controls>
      {status === 'idle' ? <NoPortfolioYet /> : null}
      {status === 'loading' ? <PageSkeleton label={shared ? 'Loading shared portfolio' : 'Loading portfolio'} /> : null}
      {status === 'notFound' ? <Problem title={shared ? SHARED_PORTFOLIO_NOT_FOUND : PORTFOLIO_NOT_FOUND} /> : null}
      {status === 'loadFailed' ? (
        <Problem
          title={shared ? 'The shared portfolio could not be loaded' : 'The portfolio could not be loaded'}
          message={error?.message}
          onRetry={retry}
        />
      ) : null}
      {loaded ? (
        <>
          <ActiveFilters />
          {isSharedPortfolio(portfolio) ? (
            <SharedPortfolioSummary key={portfolio.id} portfolio={portfolio} />
          ) : (
            <PortfolioSummary portfolio={portfolio} editable={mode === 'personal'} />
          )}
          <ArtifactsArea portfolio={portfolio} compare={compare} />
          {isSharedPortfolio(portfolio) && portfolio.abilities?.contribute ? (
            <CoverageSection place="sharedPortfolio" id={portfolio.id} />
          ) : null}
        </>
      ) : null}
    </>
  );
});
