import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MergeSources } from '../../../machines/sharedArtifactSave/mergeSources.ts';
import type { SharedUpdateInput } from '../../../machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { GateCheckResponse } from '../../../schemas/sharedArtifact.ts';
import type { Responses } from '../../../schemas/structure.ts';
// The typed failure the services throw for a refused save.
// oxlint-disable-next-line no-restricted-imports
import { ApiError } from '../../../services/errors.ts';
import { button, conflictDialog, field, renderLoaded } from '../../../test/sharedArtifactEditPageKit.ts';
import { makeSharedArtifactDetail } from '../../../test/sharedArtifactFixtures.ts';
import { makeSharedArtifact } from '../../../test/sharedFixtures.ts';
import { clearToasts } from '../../feedback/toastStore.ts';

afterEach(clearToasts);

const STORED = '2026-03-02T11:30:00.000Z';
const NEWEST = '2026-03-02T11:45:00.000Z';
const GOAL = 'What were students working to learn?';
const CATEGORY = 'What kind of evidence is this?';
const warning: GateCheckResponse = { type: 'warning', message: 'Saved by someone else.', updated_at: STORED };
const stale = new ApiError(409, 'conflict', 'Saved by someone else.', '');
const BASE: Responses = { artifactName: 'Ramp race', learningGoal: 'Forces', artifactCategory: ['Student work'] };
/** Ana changed the title, the goal, the categories and the students' thinking; files 3 and 4 came. */
const sources = (current: Responses, people: string[] = ['Ana Lopez']): MergeSources => ({
  base: { number: 1, responses: BASE, files: [3] },
  current: { number: 2, responses: current, files: [3, 4] },
  updatedAt: STORED,
  people,
});
const CLASH: Responses = {
  artifactName: 'Ramp rally',
  learningGoal: 'Forces on ramps',
  artifactCategory: ['Assessment'],
  studentThinking: 'Mass does not matter',
};

/** The page with my title, goal and categories changed, Save pressed, and Ana's version merged. */
async function openDialog(current: Responses = CLASH) {
  const page = await renderLoaded(makeSharedArtifactDetail({ responses: BASE }));
  await page.ux.type(field('Artifact Name'), 's');
  await page.ux.type(field(GOAL), ' and motion');
  await page.ux.click(screen.getByRole('checkbox', { name: 'Photo of an activity' }));
  await page.ux.click(button('Save'));
  await act(async () => page.gateCheck.next().deferred.resolve(warning));
  const read = page.load.next();
  expect(read.input).toEqual({ artifactId: 70, basedOn: 1 });
  await act(async () => read.deferred.resolve(sources(current)));
  const dialog = await screen.findByRole('alertdialog', { name: 'Edit Conflict' });
  return { ...page, dialog };
}

const group = (dialog: HTMLElement, title: string) => within(dialog).getByRole('group', { name: title });
const choose = async (ux: { click: (e: Element) => Promise<void> }, dialog: HTMLElement, title: string, pick: string) =>
  ux.click(
    within(within(dialog).getByRole('radiogroup', { name: `Keep for ${title}` })).getByRole('radio', { name: pick }),
  );
const dialogButton = (dialog: HTMLElement, name: string) =>
  within(dialog).getByRole('button', { name }) as HTMLButtonElement;

describe('the Edit Conflict dialog (a merge with answers both changed)', () => {
  it('shows each answer both changed: before, theirs and mine side by side, and names whose and what else is kept', async () => {
    const { dialog } = await openDialog();
    expect(dialog.textContent).toContain(
      'Ana Lopez saved this artifact after you opened it, and you both changed these answers. Choose what to keep for each.',
    );
    expect(dialog.textContent).toContain(
      "Their changes to “What does this evidence show about students' thinking?” and “Files” are kept as well.",
    );
    expect(
      within(dialog)
        .getAllByRole('group')
        .map((g) => g.querySelector('legend')?.textContent),
    ).toEqual(['Artifact Name', CATEGORY, GOAL]);
    const title = group(dialog, 'Artifact Name');
    expect(within(title).getByLabelText('Artifact Name: before').textContent).toBe('BeforeRamp race');
    expect(within(title).getByLabelText('Artifact Name: theirs').textContent).toBe('Theirs (Ana Lopez)Ramp rally');
    expect(within(title).getByLabelText('Artifact Name: mine').textContent).toBe('MineRamp races');
    const category = group(dialog, CATEGORY);
    expect(within(category).getByLabelText(`${CATEGORY}: mine`).textContent).toBe(
      'MineStudent work, Photo of an activity',
    );
    // Choices cannot be written anew: only theirs or mine.
    expect(
      within(category)
        .getAllByRole('radio')
        .map((r) => r.closest('label')!.textContent),
    ).toEqual(['Keep theirs', 'Keep mine']);
    expect(within(title).getAllByRole('radio')).toHaveLength(3);
    expect(dialogButton(dialog, 'Save').disabled).toBe(true);
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('theirs, mine and an edit per field; Save sends the merged answers against their version', async () => {
    const { dialog, ux, update, navigateToArtifact } = await openDialog();
    await choose(ux, dialog, 'Artifact Name', 'Edit');
    const text = within(dialog).getByRole('textbox', { name: 'Your text for Artifact Name' }) as HTMLTextAreaElement;
    // An edit starts from my text.
    expect(text.value).toBe('Ramp races');
    await ux.clear(text);
    await ux.type(text, 'Ramp relay');
    await choose(ux, dialog, CATEGORY, 'Keep theirs');
    expect(dialogButton(dialog, 'Save').disabled).toBe(true);
    await choose(ux, dialog, GOAL, 'Keep mine');
    await ux.click(dialogButton(dialog, 'Save'));
    expect(conflictDialog()).toBeNull();
    const put = update.next();
    expect(put.input).toEqual({
      artifactId: 70,
      responses: {
        artifactName: 'Ramp relay',
        learningGoal: 'Forces and motion',
        artifactCategory: ['Assessment'],
        studentThinking: 'Mass does not matter',
      },
      updatedAt: STORED,
    } satisfies SharedUpdateInput);
    await act(async () => put.deferred.resolve(makeSharedArtifact({ responses: put.input.responses })));
    expect(
      await screen.findByText(
        "Saved with Ana Lopez's changes to “What does this evidence show about students' thinking?” and “Files”.",
      ),
    ).toBeTruthy();
    await waitFor(() => expect(navigateToArtifact).toHaveBeenCalledWith(9, 70));
  });

  it('a third save during the dialog: its 409 merges again from their version, keeping my choices', async () => {
    const { dialog, ux, update, load } = await openDialog();
    await choose(ux, dialog, 'Artifact Name', 'Keep theirs');
    await choose(ux, dialog, CATEGORY, 'Keep mine');
    await choose(ux, dialog, GOAL, 'Keep mine');
    await ux.click(dialogButton(dialog, 'Save'));
    await act(async () => update.next().deferred.reject(stale));
    const read = load.next();
    expect(read.input).toEqual({ artifactId: 70, basedOn: 2 });
    // Lee changed the goal again in between: it is both changed once more, so the dialog asks again.
    await act(async () =>
      read.deferred.resolve({
        base: { number: 2, responses: CLASH, files: [3, 4] },
        current: { number: 3, responses: { ...CLASH, learningGoal: 'Friction', nextSteps: 'Try felt' }, files: [3, 4] },
        updatedAt: NEWEST,
        people: ['Lee Lead'],
      }),
    );
    const again = await screen.findByRole('alertdialog', { name: 'Edit Conflict' });
    expect(
      within(again)
        .getAllByRole('group')
        .map((g) => g.querySelector('legend')?.textContent),
    ).toEqual([GOAL]);
    expect(within(group(again, GOAL)).getByLabelText(`${GOAL}: before`).textContent).toBe('BeforeForces on ramps');
    await choose(ux, again, GOAL, 'Keep theirs');
    await ux.click(dialogButton(again, 'Save'));
    const put = update.next();
    expect(put.input).toEqual({
      artifactId: 70,
      responses: {
        artifactName: 'Ramp rally',
        learningGoal: 'Friction',
        artifactCategory: ['Student work', 'Photo of an activity'],
        studentThinking: 'Mass does not matter',
        nextSteps: 'Try felt',
      },
      updatedAt: NEWEST,
    });
  });

  it('Cancel and Escape keep my edits in the form, unsaved', async () => {
    const first = await openDialog();
    await first.ux.click(dialogButton(first.dialog, 'Cancel'));
    expect(conflictDialog()).toBeNull();
    expect(first.update.calls).toHaveLength(0);
    expect(field('Artifact Name').value).toBe('Ramp races');
    expect(field(GOAL).value).toBe('Forces and motion');
    await waitFor(() => expect(button('Save').disabled).toBe(false));
    // Saving again starts over: the gate check with the version the form was loaded with.
    await first.ux.click(button('Save'));
    await act(async () => first.gateCheck.next().deferred.resolve(warning));
    await act(async () => first.load.next().deferred.resolve(sources(CLASH)));
    await screen.findByRole('alertdialog', { name: 'Edit Conflict' });
    await first.ux.keyboard('{Escape}');
    expect(conflictDialog()).toBeNull();
    expect(first.update.calls).toHaveLength(0);
  });

  it('keeps focus inside: Tab goes round the choices and the buttons', async () => {
    const { dialog, ux } = await openDialog({ ...BASE, artifactName: 'Ramp rally' });
    expect(within(dialog).getAllByRole('group')).toHaveLength(1);
    await choose(ux, dialog, 'Artifact Name', 'Keep mine');
    const last = dialogButton(dialog, 'Save');
    last.focus();
    await ux.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).not.toBe(last);
  });
});
