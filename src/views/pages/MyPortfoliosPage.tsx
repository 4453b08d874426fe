import { useBrowserEvents } from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import { PageHeading } from '../components/PageHeading.tsx';
import { CreateArtifactButton, PortfolioBrowser } from '../portfolios/PortfolioBrowser.tsx';
import { useRouteSync } from '../portfolios/useRouteSync.ts';

/**
 * My Portfolios (teachers and PLC leads): pick one of your portfolios, filter and search its
 * artifacts, see one in the detail pane or compare two, and create new ones. The address holds
 * the portfolio and the artifact shown (`/my-portfolios/{id}/artifacts/{artifactId}`).
 */
export function MyPortfoliosPage({
  portfolioId,
  artifactId,
}: {
  /** The portfolio in the address. */
  portfolioId: number | null;
  /** The artifact in the address. */
  artifactId: number | null;
}) {
  const { routeChanged } = useBrowserEvents();
  useRouteSync([portfolioId, artifactId] as const, routeChanged);
  return (
    <>
      <PageHeading title="My Portfolios">
        <CreateArtifactButton />
      </PageHeading>
      <PortfolioBrowser />
    </>
  );
}
