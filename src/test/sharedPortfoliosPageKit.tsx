import { BASIC_STRUCTURE } from './portfolioHarness.tsx';
import { screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import type { SharedPortfolio } from '../schemas/sharedPortfolio.ts';
import type { Me } from '../schemas/user.ts';
import {
  accounts,
  detailPane,
  FakeSharedApi,
  makeComment,
  makeReaction,
  makeSharedArtifact,
  makeSharedPortfolio,
  people,
  renderSharedPortfolios,
  TEAM_QUESTION,
} from './sharedHarness.tsx';

/** What the tests of the Shared Portfolios page share: its data (a PLC and a circle with their discussions), its setup and its queries. */

export const PLC = 9;
export const LEAVE_TEXT =
  'Are you sure you want to end your membership in this Shared Portfolio? You will no longer be able to access artifacts or see comments uploaded to the portfolio.';

export function plc(): SharedPortfolio {
  const base = { sharedPortfolio: { id: PLC } };
  return makeSharedPortfolio({
    id: PLC,
    members: [people.lee, people.tess, people.theo],
    sharedArtifacts: [
      makeSharedArtifact({
        ...base,
        id: 70,
        owner: people.tess,
        ownerUsername: people.tess.username,
        portfolioGrades: ['6th'],
        structure: [...BASIC_STRUCTURE, TEAM_QUESTION],
        created_at: '2026-03-02T10:00:00.000Z',
        responses: {
          artifactName: 'Ramp race',
          unitTiming: 'Beginning of unit',
          learningGoal: 'Forces',
          [TEAM_QUESTION.key]: 'Another school',
        },
      }),
      makeSharedArtifact({
        ...base,
        id: 71,
        owner: people.theo,
        ownerUsername: people.theo.username,
        portfolioGrades: ['5th'],
        created_at: '2026-03-05T10:00:00.000Z',
        responses: { artifactName: 'Food web', unitTiming: 'Middle of unit', learningGoal: 'Energy flows' },
      }),
      makeSharedArtifact({
        ...base,
        id: 72,
        owner: people.lee,
        ownerUsername: people.lee.username,
        portfolioGrades: ['7th'],
        created_at: '2026-02-20T10:00:00.000Z',
        responses: { artifactName: 'Magnet hunt', unitTiming: 'Middle of unit', learningGoal: 'Magnets' },
      }),
    ],
  });
}

const circle = () =>
  makeSharedPortfolio({
    id: 12,
    name: 'Engineering Design Circle',
    members: [people.lee, people.tess],
    sharedArtifacts: [],
  });

/** Comments and reactions of the PLC's artifacts. */
export function discussions() {
  return {
    70: {
      comments: [
        makeComment({
          id: 31,
          sharedArtifact: 70,
          owner: people.theo.id,
          username: people.theo.username,
          text: 'Did anyone test two cars at once?',
          created_at: '2026-03-03T10:00:00.000Z',
          updated_at: '2026-03-03T10:00:00.000Z',
        }),
        makeComment({
          id: 32,
          sharedArtifact: 70,
          owner: people.tess.id,
          username: people.tess.username,
          text: 'We tried it with MARBLES.',
          created_at: '2026-03-04T10:00:00.000Z',
          updated_at: '2026-03-04T12:30:00.000Z',
        }),
      ],
      reactions: [
        makeReaction({ id: 41, sharedArtifact: 70, owner: people.lee.id, value: '⭐' }),
        makeReaction({ id: 42, sharedArtifact: 70, owner: people.theo.id, value: '🌉' }),
        makeReaction({ id: 43, sharedArtifact: 70, owner: people.tess.id, value: '⭐' }),
      ],
    },
    71: {
      comments: [
        makeComment({
          id: 33,
          sharedArtifact: 71,
          owner: people.tess.id,
          username: people.tess.username,
          text: 'My fifth graders mixed up arrows.',
        }),
      ],
      reactions: [makeReaction({ id: 44, sharedArtifact: 71, owner: people.lee.id, value: '🔖' })],
    },
  };
}

export function setup({
  path = `/shared-portfolios/${PLC}`,
  user = accounts.tess,
  portfolios = [plc(), circle()],
}: { path?: string; user?: Me; portfolios?: SharedPortfolio[] } = {}) {
  const api = new FakeSharedApi(portfolios, discussions(), user);
  return { api, ...renderSharedPortfolios({ path, user, api }) };
}

export const portfolioSelect = () =>
  screen.getByRole('combobox', { name: 'Select Shared Portfolio' }) as HTMLSelectElement;
export const summary = () => screen.getByRole('region', { name: 'Grades 5–7 Science PLC' });
export const facts = (region: HTMLElement) =>
  Object.fromEntries(
    within(region)
      .getAllByRole('term')
      .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
  );
export const reactionsOf = (pane: HTMLElement) => within(within(pane).getByRole('region', { name: 'Reactions' }));
export const commentsOf = (pane: HTMLElement) => within(within(pane).getByRole('region', { name: 'Comments' }));

export async function openFilters(ux: ReturnType<typeof userEvent.setup>) {
  await ux.click(screen.getByRole('button', { name: 'Filter By' }));
  return screen.getByRole('dialog', { name: 'Filter By' });
}

/** The pane of artifact `name` once its comments and reactions are there. */
export async function openArtifact(ux: ReturnType<typeof userEvent.setup>, name: string) {
  await ux.click(await screen.findByRole('row', { name: new RegExp(name) }));
  const pane = detailPane();
  // Read whole with its discussion: first the artifact, then its comments and reactions.
  await waitFor(() => expect(within(pane).queryByRole('status', { name: 'Loading artifact' })).toBeNull());
  await waitFor(() => expect(within(pane).queryByText(/Loading (comments|reactions)/)).toBeNull());
  return pane;
}
