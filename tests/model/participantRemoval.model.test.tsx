import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  participantRemovalMachine,
  type ParticipantRemovalEvent,
  type Removal,
} from '../../src/machines/participantRemoval/participantRemovalMachine.ts';
import type { Invitee } from '../../src/machines/participants/participantsMachine.ts';
import type { Invitation } from '../../src/schemas/invitation.ts';
import type { MembersResponse, SharedPortfolio } from '../../src/schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { renderParticipantsDialog } from '../../src/test/participantsHarness.tsx';
import { makeInvitation, makeSharedPortfolio, people } from '../../src/test/sharedFixtures.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, modelEvents } from './support/coverage.ts';
import { answerAsStep, controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(participantRemovalMachine);
afterEach(clearToasts);

type Snapshot = SnapshotFrom<typeof participantRemovalMachine>;
type Step = { event: unknown };

const PAT = { ...people.pat, invitationId: 51 };
const LOADED: MembersResponse = { members: [people.tess], pending: [PAT], nonMembers: [] };
const offline = new NetworkError();
const notOwner = new ApiError(403, 'forbidden', 'Only the owner of this shared portfolio can do this.', '');
const removals: Record<'member' | 'pending', Removal> = {
  member: { kind: 'member', person: people.tess },
  pending: { kind: 'pending', person: PAT },
};

const actorEvents = {
  cancelInvitation: [
    { type: 'xstate.done.actor.cancelInvitation', output: makeInvitation({ id: 51, to: people.pat }) },
    { type: 'xstate.error.actor.cancelInvitation', error: offline },
  ],
  removeMember: [
    { type: 'xstate.done.actor.removeMember', output: makeSharedPortfolio({ members: [people.lee] }) },
    { type: 'xstate.error.actor.removeMember', error: notOwner },
  ],
} as unknown as Record<string, ParticipantRemovalEvent[]>;

/** Edit Participants open on Tess (a member) and Pat (pending); the removal's requests wait for the test. */
async function setup(removal: Removal) {
  const fetchMembers = controllableActor<MembersResponse, { sharedPortfolioId: number }>();
  const fakes = {
    cancelInvitation: controllableActor<Invitation, { invitationId: number }>(),
    removeMember: controllableActor<SharedPortfolio, { sharedPortfolioId: number; userId: number }>(),
  };
  const { ux } = renderParticipantsDialog(
    {
      fetchMembers: fetchMembers.logic,
      searchPeople: controllableActor<MembersResponse, { sharedPortfolioId: number; search: string }>().logic,
      invitePerson: controllableActor<Invitation, { sharedPortfolioId: number; invitee: Invitee }>().logic,
      cancelInvitation: fakes.cancelInvitation.logic,
      removeMember: fakes.removeMember.logic,
    },
    coverageInspector,
  );
  await ux.click(screen.getByRole('button', { name: 'Edit Participants' }));
  await act(async () => fetchMembers.next().deferred.resolve(LOADED));
  await ux.click(screen.getByRole('button', { name: `Remove ${removal.person.username}` }));
  return { fakes, ux, removal };
}

let h: Awaited<ReturnType<typeof setup>>;

const question = () => screen.getByRole('alertdialog', { name: 'Remove Participant' });
const button = (name: 'Yes' | 'NO') => within(question()).getByRole('button', { name }) as HTMLButtonElement;
const listed = () =>
  within(screen.getByRole('list', { name: 'Portfolio Participants' }))
    .getAllByRole('listitem')
    .map((li) => li.querySelector('span')!.textContent);
const alerts = () =>
  screen
    .queryAllByRole('alert')
    .filter((a) => !a.closest('[role="dialog"]'))
    .map((a) => a.querySelector('p')?.textContent);
const announcement = () =>
  within(screen.getByRole('dialog', { name: 'Edit Participants' })).getByRole('status', { name: '' }).textContent;
const ALL_LISTED = [people.tess.username, `${people.pat.username} (Pending)`];

const checks: Record<string, (s: Snapshot) => Promise<void> | void> = {
  confirming: (s) => {
    expect(
      within(question()).getByText(
        `Remove ${s.context.removal.person.username} from this shared portfolio? They will no longer see or comment on its artifacts.`,
      ),
    ).toBeTruthy();
    expect(button('Yes').disabled).toBe(false);
    expect(button('NO').disabled).toBe(false);
    expect(listed()).toEqual(ALL_LISTED);
  },
  cancellingInvitation: () => {
    expect(button('Yes').disabled).toBe(true);
    expect(h.fakes.cancelInvitation.calls.map((c) => c.input)).toEqual([{ invitationId: 51 }]);
  },
  removingMember: () => {
    expect(button('NO').disabled).toBe(true);
    expect(h.fakes.removeMember.calls.map((c) => c.input)).toEqual([{ sharedPortfolioId: 9, userId: people.tess.id }]);
  },
  removed: () => {
    // The person is no longer listed, and this is announced.
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const person = h.removal.person.username;
    expect(listed()).toEqual(ALL_LISTED.filter((name) => !name.startsWith(person)));
    expect(announcement()).toBe(
      h.removal.kind === 'pending' ? `The invitation of ${person} was deleted.` : `${person} was removed.`,
    );
    expect(alerts()).toEqual([]);
  },
  kept: (s) => {
    // Declined, or the request failed and the user is told why.
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(listed()).toEqual(ALL_LISTED);
    expect(announcement()).toBe('');
    const failed = s.context.removal.kind === 'pending' ? offline : notOwner;
    const asked = h.fakes.cancelInvitation.calls.length + h.fakes.removeMember.calls.length > 0;
    expect(alerts()).toEqual(asked ? [failed.message] : []);
  },
};
const states = checkStates<Snapshot>(checks);

const events = {
  'removal.confirm': () => h.ux.click(button('Yes')),
  'removal.cancel': () => h.ux.click(button('NO')),
  'xstate.done.actor.cancelInvitation': (step: Step) => answerAsStep(h.fakes.cancelInvitation.calls[0]!, step),
  'xstate.error.actor.cancelInvitation': (step: Step) => answerAsStep(h.fakes.cancelInvitation.calls[0]!, step),
  'xstate.done.actor.removeMember': (step: Step) => answerAsStep(h.fakes.removeMember.calls[0]!, step),
  'xstate.error.actor.removeMember': (step: Step) => answerAsStep(h.fakes.removeMember.calls[0]!, step),
};

describe.each(['pending', 'member'] as const)('participantRemoval model (removing a %s participant)', (kind) => {
  const paths = checkedShortestPaths(
    participantRemovalMachine,
    {
      input: { sharedPortfolioId: 9, removal: removals[kind] },
      events: modelEvents<ParticipantRemovalEvent>(
        [{ type: 'removal.confirm' }, { type: 'removal.cancel' }],
        actorEvents,
      ),
    },
    checks,
    2,
  );
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      h = await setup(removals[kind]);
      expect(question()).toBeTruthy();
      await path.test({ states, events });
    });
  }
});
