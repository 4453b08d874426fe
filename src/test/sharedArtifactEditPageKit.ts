/** The shared artifact edit page rendered for its component tests, and the page's parts they use. */
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { controllableActor } from '../../tests/model/support/deferred.ts';
import type { EditableArtifact } from '../machines/artifactLifecycle/artifactSelectors.ts';
import type { MergeSources, MergeSourcesInput } from '../machines/sharedArtifactSave/mergeSources.ts';
import type { GateCheckInput, SharedUpdateInput } from '../machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { GateCheckResponse, SharedArtifactDetail } from '../schemas/sharedArtifact.ts';
import type { SharedArtifact } from '../schemas/sharedPortfolio.ts';
import { renderArtifactEdit } from './artifactEditHarness.tsx';
import { makeSharedArtifactDetail } from './sharedArtifactFixtures.ts';

export const input = { kind: 'shared' as const, portfolioId: 9, artifactId: 70, readOnly: false };

/** The page with the artifact loaded; gate checks, saves and merge reads wait for the test. */
export async function renderLoaded(
  artifact: SharedArtifactDetail = makeSharedArtifactDetail(),
  options: { leaveDelay?: number } = {},
) {
  const gateCheck = controllableActor<GateCheckResponse, GateCheckInput>();
  const update = controllableActor<SharedArtifact, SharedUpdateInput>();
  const load = controllableActor<MergeSources, MergeSourcesInput>();
  const fetchArtifact = controllableActor<EditableArtifact, { artifactId: number }>();
  const deleteShared = controllableActor<SharedArtifact, { artifactId: number }>();
  const rendered = renderArtifactEdit({
    input,
    fakes: {
      fetchArtifact: fetchArtifact.logic,
      gateCheck: gateCheck.logic,
      updateSharedArtifact: update.logic,
      loadMergeSources: load.logic,
      deleteSharedArtifact: deleteShared.logic,
    },
    ...(options.leaveDelay !== undefined ? { leaveDelay: options.leaveDelay } : {}),
  });
  expect(fetchArtifact.calls[0]?.input).toEqual({ artifactId: 70 });
  await act(async () => fetchArtifact.next().deferred.resolve(artifact));
  await screen.findByRole('heading', { level: 1, name: 'Edit Shared Artifact' });
  return { ...rendered, gateCheck, update, load, deleteShared, ux: userEvent.setup() };
}

export const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A question's input by its text (core questions carry a decorative '*'). */
export const field = (label: string) => screen.getByLabelText(new RegExp(`^${escape(label)}\\*?$`)) as HTMLInputElement;
export const alerts = () => screen.queryAllByRole('alert').map((a) => a.textContent ?? '');
export const conflictDialog = () => screen.queryByRole('alertdialog', { name: 'Edit Conflict' });
