import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { EditableArtifact } from '../../../machines/artifactLifecycle/artifactSelectors.ts';
import { artifactDraftText } from '../../../machines/artifactLifecycle/useArtifactFormDraft.ts';
import type { Artifact, ArtifactUpdateBody } from '../../../schemas/artifact.ts';
import { readDraft, writeDraft } from '../../../services/drafts.ts';
import { currentUser } from '../../../services/session.ts';
import { makeArtifact } from '../../../test/artifactFixtures.ts';
import { renderArtifactEdit } from '../../../test/artifactEditHarness.tsx';
import { makeUser } from '../../../test/renderApp.tsx';
import { clearToasts } from '../../feedback/toastStore.ts';

type UpdateInput = { artifactId: number; body: ArtifactUpdateBody };

const USER = makeUser('teacher');
const FORM = 'artifact:12';
const artifact = makeArtifact({
  id: 12,
  portfolio: { id: 7 },
  parkingLot: false,
  responses: { artifactName: 'Ramp races', learningGoal: 'Slopes and speed' },
});
/** The answers as typed before the tab was closed: a goal retyped and a next step added. */
const TYPED = { ...artifactAnswers(), learningGoal: 'Slopes, speed and friction', nextSteps: 'Try carpet next.' };

function artifactAnswers(): Record<string, string | string[]> {
  const answers: Record<string, string | string[]> = {};
  for (const q of artifact.structure) {
    if (q.type === 'fileUpload' || q.key === 'fileUpload') continue;
    const value = artifact.responses[q.key];
    answers[q.key] =
      q.type === 'multipleResponse' || q.type === 'expansionPanelChoices' ? [] : typeof value === 'string' ? value : '';
  }
  return answers;
}

async function open(loaded: Artifact = artifact) {
  const saves: UpdateInput[] = [];
  renderArtifactEdit({
    fakes: {
      fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => loaded),
      updateArtifact: fromPromise<Artifact, UpdateInput>(async ({ input }) => {
        saves.push(input);
        return { ...loaded, responses: input.body.responses, updated_at: '2026-11-27T12:00:00.000Z' };
      }),
    },
    redirectDelay: 0,
  });
  await screen.findByRole('heading', { level: 1, name: 'Edit Artifact' });
  return { saves, ux: userEvent.setup() };
}

const offer = () => screen.queryByRole('group', { name: 'Unsaved answers' });
/** The offer of a kept draft, once the draft was read (after the form). */
const findOffer = () => screen.findByRole('group', { name: 'Unsaved answers' });
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A question's box by its text (core questions carry a decorative '*'). */
const box = (label: string) => screen.getByLabelText(new RegExp(`^${escape(label)}\\*?$`)) as HTMLTextAreaElement;

beforeEach(() => {
  localStorage.clear();
  currentUser.value = USER;
});
afterEach(() => {
  clearToasts();
  localStorage.clear();
  currentUser.value = null;
});

describe('the artifact form keeps a local draft', () => {
  it('keeps the answers as they are typed, for this user and artifact', async () => {
    const { ux } = await open();
    await ux.click(box('What would you do next, or differently?'));
    await ux.paste('Try carpet');
    await waitFor(() => expect(readDraft(USER.id, FORM)).not.toBeNull(), { timeout: 2000 });
    const kept = readDraft(USER.id, FORM)!;
    expect(JSON.parse(kept.text).nextSteps).toBe('Try carpet');
    expect(kept.base).toBe(artifact.updated_at);
    expect(readDraft(USER.id + 1, FORM)).toBeNull();
  });

  it('offers a draft left by a reload; Restore puts every answer back, Save sends them and forgets the draft', async () => {
    writeDraft(USER.id, FORM, artifactDraftText(TYPED), artifact.updated_at);
    const { ux, saves } = await open();
    const bar = await findOffer();
    expect(bar.querySelector('p')!.textContent).toMatch(/^Restore your unsaved text from \d{1,2}:\d\d[ap]m\?$/);
    // Nothing goes into the form before the user says so.
    expect(box('What were students working to learn?').value).toBe('Slopes and speed');
    await ux.click(within(bar).getByRole('button', { name: 'Restore' }));
    expect(offer()).toBeNull();
    expect(box('What were students working to learn?').value).toBe('Slopes, speed and friction');
    expect(box('What would you do next, or differently?').value).toBe('Try carpet next.');
    await ux.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]!.body.responses).toMatchObject({
      learningGoal: 'Slopes, speed and friction',
      nextSteps: 'Try carpet next.',
    });
    await screen.findByText('Another page');
    await waitFor(() => expect(readDraft(USER.id, FORM)).toBeNull());
  });

  it('says so when the saved artifact changed after the draft was typed, and restores only when asked', async () => {
    writeDraft(USER.id, FORM, artifactDraftText(TYPED), '2026-01-01T00:00:00.000Z');
    await open();
    expect((await findOffer()).textContent).toContain(
      'The saved copy was changed after this text was typed: compare before saving.',
    );
    expect(box('What were students working to learn?').value).toBe('Slopes and speed');
  });

  it('Discard forgets the draft and leaves the saved answers', async () => {
    writeDraft(USER.id, FORM, artifactDraftText(TYPED), artifact.updated_at);
    const { ux } = await open();
    await ux.click(within(await findOffer()).getByRole('button', { name: 'Discard' }));
    expect(offer()).toBeNull();
    expect(box('What were students working to learn?').value).toBe('Slopes and speed');
    expect(readDraft(USER.id, FORM)).toBeNull();
  });

  it('Cancel forgets what was typed', async () => {
    const { ux } = await open();
    await ux.click(box('What would you do next, or differently?'));
    await ux.paste('Never mind');
    await waitFor(() => expect(readDraft(USER.id, FORM)).not.toBeNull(), { timeout: 2000 });
    await ux.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByText('Another page');
    await waitFor(() => expect(readDraft(USER.id, FORM)).toBeNull());
  });
});
