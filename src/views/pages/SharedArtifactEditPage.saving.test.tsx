import { act, screen, waitFor } from '@testing-library/react';
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
const NEWEST = '2026-03-02T11:45:00.000Z';
const STALE_MESSAGE = 'This artifact has recently been saved by someone else at 03/02/26 11:45.';

const ok: GateCheckResponse = { type: 'ok', message: 'Shared artifact can be safely saved.', updated_at: LOADED };
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

  it('a 409 right after an ok gate check merges (someone saved between the check and the save)', async () => {
    const { ux, gateCheck, update, load } = await renderLoaded();
    await ux.type(field('Artifact Name'), 's');
    await ux.click(button('Save'));
    await act(async () => gateCheck.next().deferred.resolve(ok));
    await act(async () => update.next().deferred.reject(stale));
    const read = load.next();
    expect(read.input).toEqual({ artifactId: 70, basedOn: 1 });
    await act(async () =>
      read.deferred.resolve({
        base: { number: 1, responses: { artifactName: 'Ramp race', learningGoal: 'Forces' }, files: [] },
        current: { number: 2, responses: { artifactName: 'Ramp race', learningGoal: 'Motion' }, files: [4] },
        updatedAt: NEWEST,
        people: ['Ana Lopez'],
      }),
    );
    expect(conflictDialog()).toBeNull();
    const put = update.next();
    expect(put.input).toEqual({
      artifactId: 70,
      responses: { artifactName: 'Ramp races', learningGoal: 'Motion' },
      updatedAt: NEWEST,
    });
    await act(async () => put.deferred.resolve(savedAs(put.input)));
    expect(
      await screen.findByText("Saved with Ana Lopez's changes to “What were students working to learn?” and “Files”."),
    ).toBeTruthy();
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
