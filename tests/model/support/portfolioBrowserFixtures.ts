/** The personal portfolios of the portfolio browser's model test: Forces and Motion and Zoo trip. */
import type { Portfolio, PortfolioListItem } from '../../../src/schemas/portfolio.ts';
import { daysAgo, listItemOf, makeArtifact, makePortfolio } from '../../../src/test/portfolioHarness.tsx';

export const forces = makePortfolio({
  id: 41,
  name: 'Forces and Motion',
  artifacts: [
    makeArtifact({
      id: 1,
      portfolio: { id: 41 },
      parkingLot: false,
      created_at: daysAgo(10),
      responses: { artifactName: 'Ramp races', unitTiming: 'Beginning of unit' },
    }),
    makeArtifact({
      id: 2,
      portfolio: { id: 41 },
      parkingLot: false,
      created_at: daysAgo(3),
      responses: { artifactName: 'Exit ticket', unitTiming: 'Middle of unit' },
    }),
    makeArtifact({
      id: 3,
      portfolio: { id: 41 },
      parkingLot: true,
      created_at: daysAgo(20),
      responses: { artifactName: 'Tug-of-war video' },
    }),
  ],
});
export const zoo = makePortfolio({
  id: 43,
  name: 'Zoo trip',
  artifacts: [
    makeArtifact({ id: 9, portfolio: { id: 43 }, parkingLot: false, responses: { artifactName: 'Penguin count' } }),
  ],
});
export const PORTFOLIOS: Record<number, Portfolio> = { 41: forces, 43: zoo };
export const LIST: PortfolioListItem[] = [zoo, forces].map(listItemOf);
export const NEW_ARTIFACT = makeArtifact({ id: 777, portfolio: { id: 41 } });
