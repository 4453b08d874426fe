import { Link } from 'wouter';
import styled from 'styled-components';
import { useBrowserEvents } from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { ButtonLink } from '../components/Button.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { paths } from '../paths.ts';
import { PortfolioBrowser } from '../portfolios/PortfolioBrowser.tsx';
import { useRouteSync } from '../portfolios/useRouteSync.ts';
import { theme } from '../theme/theme.ts';

/** The name the shared portfolios CSV is saved under (spec §7). */
export const SHARED_EXPORT_FILE = 'shared portfolios.csv';

const HeadingActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
`;

/**
 * Shared Portfolios: 'CREATE NEW SHARED PORTFOLIO' (PLC leads and researchers), 'Export shared
 * portfolios summary' (researchers), then the shared portfolio selector, Filter By (with Show
 * Only, Grade and Has Reactions), keyword search (answers and comments), the summary with Leave,
 * Export and Edit, and the artifacts table with compare mode and the artifact pane (reactions and
 * comments). The address holds the portfolio and the artifact shown
 * (`/shared-portfolios/{id}/artifacts/{artifactId}`).
 */
export function SharedPortfoliosPage({
  portfolioId,
  artifactId,
  exportUrl,
}: {
  /** The shared portfolio in the address. */
  portfolioId: number | null;
  /** The artifact in the address. */
  artifactId: number | null;
  /** Where the shared portfolios CSV downloads from. */
  exportUrl: string;
}) {
  const user = useCurrentUser();
  const { routeChanged } = useBrowserEvents();
  useRouteSync([portfolioId, artifactId] as const, routeChanged);
  const canExport = user?.abilities.exportSummaries ?? false;
  const canCreate = user?.abilities.createSharedPortfolio ?? false;
  return (
    <>
      <PageHeading title="Shared Portfolios">
        {canExport || canCreate ? (
          <HeadingActions>
            {canExport ? (
              <ButtonLink href={exportUrl} download={SHARED_EXPORT_FILE} $variant="secondary">
                Export shared portfolios summary
              </ButtonLink>
            ) : null}
            {canCreate ? (
              <Link href={paths.sharedPortfolioNew} asChild>
                <ButtonLink>CREATE NEW SHARED PORTFOLIO</ButtonLink>
              </Link>
            ) : null}
          </HeadingActions>
        ) : null}
      </PageHeading>
      <PortfolioBrowser />
    </>
  );
}
