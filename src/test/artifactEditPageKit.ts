/** The personal artifact edit page rendered for its component tests, and the page's parts they use. */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import type { Artifact, ArtifactUpdateBody } from '../schemas/artifact.ts';
import type { EditableArtifact } from '../machines/artifactLifecycle/artifactSelectors.ts';
import { makeArtifact } from './artifactFixtures.ts';
import { renderArtifactEdit } from './artifactEditHarness.tsx';

export type UpdateInput = { artifactId: number; body: ArtifactUpdateBody };

/** The page with the artifact loaded; saves are recorded and answer with the artifact as saved. */
export async function renderLoaded(
  artifact: Artifact,
  options: {
    update?: (input: UpdateInput) => Promise<Artifact>;
    redirectDelay?: number;
    discard?: (input: { artifactId: number }) => Promise<Artifact>;
  } = {},
) {
  const discarded: number[] = [];
  const saves: UpdateInput[] = [];
  const update =
    options.update ??
    (async (input: UpdateInput) => ({
      ...artifact,
      responses: input.body.responses,
      parkingLot: input.body.parkingLot ?? artifact.parkingLot,
    }));
  const rendered = renderArtifactEdit({
    input: { kind: 'personal', portfolioId: artifact.portfolio.id, artifactId: artifact.id, readOnly: false },
    fakes: {
      fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => artifact),
      updateArtifact: fromPromise<Artifact, UpdateInput>(({ input }) => {
        saves.push(input);
        return update(input);
      }),
      discardArtifact: fromPromise<Artifact, { artifactId: number }>(({ input }) => {
        discarded.push(input.artifactId);
        return options.discard ? options.discard(input) : Promise.resolve(artifact);
      }),
    },
    ...(options.redirectDelay !== undefined ? { redirectDelay: options.redirectDelay } : {}),
  });
  await screen.findByRole('heading', { level: 1, name: 'Edit Artifact' });
  return { ...rendered, saves, discarded, ux: userEvent.setup() };
}

export const headerLink = () => screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' });
export const leaveDialog = () => screen.queryByRole('alertdialog', { name: 'Leave this page?' });

export const lotArtifact = (overrides: Partial<Artifact> = {}) =>
  makeArtifact({ id: 12, portfolio: { id: 7 }, parkingLot: true, ...overrides });
export const completedArtifact = (overrides: Partial<Artifact> = {}) =>
  makeArtifact({
    id: 12,
    portfolio: { id: 7 },
    parkingLot: false,
    responses: { artifactName: 'Ramp races', learningGoal: 'Slopes and speed' },
    ...overrides,
  });

export const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
export const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A question's input by its text (core questions carry a decorative '*'). */
export const field = (label: string) => screen.getByLabelText(new RegExp(`^${escape(label)}\\*?$`)) as HTMLInputElement;
