import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SharedUpdateInput } from '../../machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { GateCheckResponse } from '../../schemas/sharedArtifact.ts';
import type { SharedArtifact } from '../../schemas/sharedPortfolio.ts';
// The typed failures the services throw, which the machines turn into messages.
// oxlint-disable-next-line no-restricted-imports
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeSharedArtifact } from '../../test/sharedFixtures.ts';
import { clearToasts } from '../feedback/toastStore.ts';
import { alerts, button, conflictDialog, field, renderLoaded } from '../../test/sharedArtifactEditPageKit.ts';

afterEach(clearToasts);

const LOADED = '2026-03-02T10:00:00.000Z';
const STORED = '2026-03-02T11:30:00.000Z';
const NEWEST = '2026-03-02T11:45:00.000Z';
const CONFLICT_MESSAGE = 'This artifact has recently been saved by someone else at 03/02/26 11:30.';
const STALE_MESSAGE = 'This artifact has recently been saved by someone else at 03/02/26 11:45.';

const ok: GateCheckResponse = { type: 'ok', message: 'Shared artifact can be safely saved.', updated_at: LOADED };
const conflict = (updatedAt = STORED, message = CONFLICT_MESSAGE): GateCheckResponse => ({
  type: 'warning',
  message,
  updated_at: updatedAt,
});
const refusal: GateCheckResponse = { type: 'error', message: 'Invalid updated_at parameter.' };
const stale = new ApiError(409, 'conflict', STALE_MESSAGE, '');

const savedAs = (inputOfPut: SharedUpdateInput): SharedArtifact =>
  makeSharedArtifact({ responses: inputOfPut.responses, updated_at: NEWEST });

describe('the shared artifact edit page: saving (gate check)', () => {
  it('gate check ok: sends the answers with the loaded updated_at, says so and opens the shared artifact view', async () => {
    const { ux, gateCheck, update, navigateToArtifact } = await renderLoaded();
    await ux.type(field('Artifact Name'), 's');
    await ux.click(button('Save'));
    expect(gateCheck.calls[0]!.input).toEqual({ portfolioId: 9, artifactId: 70, updatedAt: LOADED });
    expect(button('Save').getAttribute('aria-busy')).toBe('true');
    await act(async () => gateCheck.next().deferred.resolve(ok));
    const put = update.next();
    expect(put.input).toEqual({
      artifactId: 70,
      responses: { artifactName: 'Ramp races', learningGoal: 'Forces' },
      updatedAt: LOADED,
    });
    await act(async () => put.deferred.resolve(savedAs(put.input)));
    expect(await screen.findByText('Successfully edited shared artifact')).toBeTruthy();
    await waitFor(() => expect(navigateToArtifact).toHaveBeenCalledWith(9, 70));
  });

  it('conflict: asks “<message> Are you sure you want to overwrite their changes?”; NO keeps the answers and sends nothing', async () => {
    const { ux, gateCheck, update } = await renderLoaded();
    await ux.type(field('Artifact Name'), 's');
    await ux.click(button('Save'));
    await act(async () => gateCheck.next().deferred.resolve(conflict()));
    const dialog = conflictDialog()!;
    expect(dialog.textContent).toContain(`${CONFLICT_MESSAGE} Are you sure you want to overwrite their changes?`);
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['NO', 'YES']);
    // Focus starts on NO and stays in the dialog.
    expect(document.activeElement).toBe(button('NO'));
    await ux.tab();
    expect(document.activeElement).toBe(button('YES'));
    await ux.tab();
    expect(document.activeElement).toBe(button('NO'));
    await ux.click(button('NO'));
    expect(conflictDialog()).toBeNull();
    expect(update.calls).toHaveLength(0);
    expect(field('Artifact Name').value).toBe('Ramp races');
    await waitFor(() => expect(button('Save').disabled).toBe(false));
    expect(button('Save').getAttribute('aria-busy')).toBeNull();
  });

  it('conflict: YES sends the answers with the updated_at the gate check returned', async () => {
    const { ux, gateCheck, update, navigateToArtifact } = await renderLoaded();
    await ux.click(button('Save'));
    await act(async () => gateCheck.next().deferred.resolve(conflict()));
    await ux.click(within(conflictDialog()!).getByRole('button', { name: 'YES' }));
    expect(conflictDialog()).toBeNull();
    const put = update.next();
    expect(put.input).toEqual({
      artifactId: 70,
      responses: { artifactName: 'Ramp race', learningGoal: 'Forces' },
      updatedAt: STORED,
    });
    await act(async () => put.deferred.resolve(savedAs(put.input)));
    expect(await screen.findByText('Successfully edited shared artifact')).toBeTruthy();
    await waitFor(() => expect(navigateToArtifact).toHaveBeenCalledWith(9, 70));
  });

  it('Escape at the Edit Conflict question answers NO', async () => {
    const { ux, gateCheck, update } = await renderLoaded();
    await ux.click(button('Save'));
    await act(async () => gateCheck.next().deferred.resolve(conflict()));
    await ux.keyboard('{Escape}');
    expect(conflictDialog()).toBeNull();
    expect(update.calls).toHaveLength(0);
  });

  it('gate check error: alerts its message, sends nothing and keeps the answers', async () => {
    const { ux, gateCheck, update } = await renderLoaded();
    await ux.type(field('Artifact Name'), 's');
    await ux.click(button('Save'));
    await act(async () => gateCheck.next().deferred.resolve(refusal));
    await waitFor(() => expect(alerts().join()).toContain(refusal.message));
    expect(update.calls).toHaveLength(0);
    expect(conflictDialog()).toBeNull();
    expect(field('Artifact Name').value).toBe('Ramp races');
    await waitFor(() => expect(button('Save').disabled).toBe(false));
  });

  it('a gate check that cannot reach the server alerts why and keeps the answers', async () => {
    const { ux, gateCheck, update } = await renderLoaded();
    await ux.click(button('Save'));
    await act(async () => gateCheck.next().deferred.reject(new NetworkError()));
    await waitFor(() => expect(alerts().join()).toContain('The server could not be reached.'));
    expect(update.calls).toHaveLength(0);
    await waitFor(() => expect(button('Save').disabled).toBe(false));
  });

  it('409 from the save (someone saved in between): the dialog comes back with the server’s message, and YES saves over the newest version', async () => {
    const { ux, gateCheck, update, navigateToArtifact } = await renderLoaded();
    await ux.click(button('Save'));
    await act(async () => gateCheck.next().deferred.resolve(conflict()));
    await ux.click(button('YES'));
    await act(async () => update.next().deferred.reject(stale));
    // A fresh gate check learns which version is stored now.
    const recheck = gateCheck.next();
    expect(recheck.input).toEqual({ portfolioId: 9, artifactId: 70, updatedAt: LOADED });
    await act(async () => recheck.deferred.resolve(conflict(NEWEST, 'The gate check’s own words.')));
    const dialog = conflictDialog()!;
    expect(dialog.textContent).toContain(`${STALE_MESSAGE} Are you sure you want to overwrite their changes?`);
    expect(dialog.textContent).not.toContain('own words');
    await ux.click(within(dialog).getByRole('button', { name: 'YES' }));
    const put = update.next();
    expect(put.input.updatedAt).toBe(NEWEST);
    await act(async () => put.deferred.resolve(savedAs(put.input)));
    expect(await screen.findByText('Successfully edited shared artifact')).toBeTruthy();
    await waitFor(() => expect(navigateToArtifact).toHaveBeenCalledWith(9, 70));
  });

  it('a 409 right after an ok gate check asks too (someone saved between the check and the save)', async () => {
    const { ux, gateCheck, update } = await renderLoaded();
    await ux.click(button('Save'));
    await act(async () => gateCheck.next().deferred.resolve(ok));
    await act(async () => update.next().deferred.reject(stale));
    await act(async () => gateCheck.next().deferred.resolve(conflict(NEWEST)));
    expect(conflictDialog()!.textContent).toContain(STALE_MESSAGE);
    await ux.click(button('NO'));
    expect(update.calls).toHaveLength(0);
    await waitFor(() => expect(button('Save').disabled).toBe(false));
  });

  it('another failure of the save alerts the server’s message and keeps the answers', async () => {
    const { ux, gateCheck, update } = await renderLoaded();
    await ux.type(field('Artifact Name'), 's');
    await ux.click(button('Save'));
    await act(async () => gateCheck.next().deferred.resolve(ok));
    await act(async () =>
      update.next().deferred.reject(new ApiError(400, 'invalid_responses', 'Field Artifact Name is required.', '')),
    );
    await waitFor(() => expect(alerts().join()).toContain('Field Artifact Name is required.'));
    expect(gateCheck.calls).toHaveLength(0);
    expect(field('Artifact Name').value).toBe('Ramp races');
    await waitFor(() => expect(button('Save').disabled).toBe(false));
  });
});
