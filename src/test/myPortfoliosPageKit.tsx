import { screen, within } from '@testing-library/react';
import type { Artifact } from '../schemas/artifact.ts';
import type { Portfolio } from '../schemas/portfolio.ts';
import {
  answeringBrowserActors,
  artifactsGrid,
  daysAgo,
  makeArtifact,
  makePortfolio,
  renderMyPortfolios,
} from './portfolioHarness.tsx';

/** What the tests of the My Portfolios page share: a portfolio on forces and two empty ones, the page's setup and queries. */

export const FORCES = 41;

export function forcesPortfolio(): Portfolio {
  const base = { portfolio: { id: FORCES } };
  const artifacts: Artifact[] = [
    makeArtifact({
      ...base,
      id: 1,
      parkingLot: false,
      created_at: daysAgo(12),
      commentCount: 3,
      commentTexts: ['Try a STEEPER ramp next time'],
      responses: {
        artifactName: 'Ramp races',
        unitTiming: 'Beginning of unit',
        artifactCategory: ['Student work', 'Photo of an activity'],
        standardFrameworkTags: ['Cause and Effect', 'PS2.A: Forces and Motion'],
        learningGoal: 'Predict how ramp height changes distance.',
      },
    }),
    makeArtifact({
      ...base,
      id: 2,
      parkingLot: false,
      created_at: daysAgo(5),
      commentCount: 1,
      responses: {
        artifactName: 'Balanced forces exit ticket',
        unitTiming: 'Middle of unit',
        artifactCategory: ['Assessment'],
        standardFrameworkTags: ['PS2.A: Forces and Motion'],
        unitDay: 6,
      },
    }),
    makeArtifact({
      ...base,
      id: 3,
      parkingLot: true,
      created_at: daysAgo(2),
      responses: { artifactName: 'Tug-of-war video', unitTiming: 'End of unit' },
    }),
    makeArtifact({
      ...base,
      id: 4,
      parkingLot: false,
      created_at: daysAgo(30),
      ownerUsername: 'Abe Author',
      responses: {
        artifactName: 'Magnet hunt',
        unitTiming: 'Middle of unit',
        artifactCategory: ['Student work'],
        learningGoal: 'Sort objects by magnetic attraction.',
      },
    }),
  ];
  return makePortfolio({
    id: FORCES,
    name: 'Forces and Motion',
    grades: ['5th', 'K'],
    subject: 'Science',
    topic: 'Pushes and pulls',
    artifacts,
  });
}

export const ecology = () => makePortfolio({ id: 42, name: 'ecology notes', artifacts: [] });
const zoo = () => makePortfolio({ id: 43, name: 'Zoo trip', artifacts: [] });

export function setup(
  path = `/my-portfolios/${FORCES}`,
  portfolios: Portfolio[] = [forcesPortfolio(), zoo(), ecology()],
) {
  const actors = answeringBrowserActors(portfolios);
  return { ...renderMyPortfolios({ path, actors }), calls: actors.calls };
}

export const portfolioSelect = () => screen.getByRole('combobox', { name: 'Select Portfolio' }) as HTMLSelectElement;
export const header = (name: string) => within(artifactsGrid()).getByRole('columnheader', { name });

export async function openFilters(ux: ReturnType<typeof setup>['ux']) {
  await ux.click(screen.getByRole('button', { name: 'Filter By' }));
  return screen.getByRole('dialog', { name: 'Filter By' });
}
