import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { participantsOf } from '../../src/machines/participants/membership.ts';
import {
  participantsMachine,
  type Invitee,
  type ParticipantsEvent,
} from '../../src/machines/participants/participantsMachine.ts';
import type { Invitation } from '../../src/schemas/invitation.ts';
import type { MembersResponse, SharedPortfolio } from '../../src/schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { PARTICIPANTS_INPUT, renderParticipantsDialog } from '../../src/test/participantsHarness.tsx';
import { makeInvitation, makeSharedPortfolio, people } from '../../src/test/sharedFixtures.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { coverageInspector, createPathModel, isInvoking } from './support/coverage.ts';
import { answerAsStep, controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(participantsMachine);

type Snapshot = SnapshotFrom<typeof participantsMachine>;
type Step = { event: unknown };

/** A readable test name: where the path ends and the gestures and answers that lead there. */
function pathTitle(path: { state: { value: unknown }; steps: readonly { event: unknown }[] }): string {
  const steps = path.steps
    .map(
      (step) =>
        step.event as { type: string; text?: string; userId?: number; error?: Error; output?: { removed?: boolean } },
    )
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => {
      const type = event.type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) =>
        kind === 'done' ? '✓ ' : '✗ ',
      );
      const detail =
        event.text !== undefined
          ? ` "${event.text}"`
          : event.userId !== undefined
            ? ` #${event.userId}`
            : event.error
              ? ` (${event.error.message})`
              : event.output?.removed !== undefined
                ? ` (${event.output.removed ? 'removed' : 'kept'})`
                : '';
      return `${type}${detail}`;
    });
  return `${JSON.stringify(path.state.value)} ← ${steps.join(' → ') || 'start'}`;
}

const LOADED: MembersResponse = {
  members: [people.tess],
  pending: [{ ...people.pat, invitationId: 51 }],
  nonMembers: [],
};
const NEW_ADDRESS = 'new.person@example.org';
const newcomer = { id: 300, username: 'new.person', email: NEW_ADDRESS };
const offline = new NetworkError();
const alreadyInvited = new ApiError(
  400,
  'already_invited',
  `${NEW_ADDRESS} has already been invited to this shared portfolio.`,
  '',
);
// Small answers: the model's states (and so the test names) carry them.
const slim = (sp: SharedPortfolio): SharedPortfolio => ({ ...sp, structure: [], templateStructure: [] });
const slimInvitation = (to: typeof newcomer, id: number): Invitation => {
  const base = makeInvitation({ id, to });
  return { ...base, sharedPortfolio: { ...base.sharedPortfolio, structure: [], templateStructure: [] } };
};

const sameMembership = (s: Snapshot) =>
  JSON.stringify(s.context.membership) === JSON.stringify({ members: LOADED.members, pending: LOADED.pending });

/**
 * The events of the model in a state. The dialog is opened once; from the freshly loaded list the
 * user searches ('the' finds Theo, whom they invite; 'new.person@…' finds nobody, so they invite the
 * address), sends an empty box, or removes Tess (a member) or Pat (pending): the removal is answered
 * as removed (Yes, and the request succeeds) or kept (NO); its inner paths, failures included, are
 * participantRemoval.model.test.tsx's. Offering each gesture only where it leads somewhere new keeps
 * the model small while taking every transition.
 */
function events(snapshot: unknown): ParticipantsEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: ParticipantsEvent[] = [];
  const fresh = c.text === '' && c.message === null && c.announcement === '' && sameMembership(s);
  if (s.matches('closed') && c.error === null && c.membership.pending.length === 0) list.push({ type: 'dialog.open' });
  if (s.matches({ open: 'loading' })) list.push({ type: 'dialog.close' });
  if (s.matches({ open: 'loadFailed' })) list.push({ type: 'retry' }, { type: 'dialog.close' });
  if (s.matches({ open: { ready: 'idle' } })) {
    if (fresh) {
      list.push(
        { type: 'dialog.close' },
        { type: 'search.change', text: 'the' },
        { type: 'search.change', text: NEW_ADDRESS },
        { type: 'invite.submit' },
        { type: 'participant.remove', userId: people.tess.id },
        { type: 'participant.remove', userId: people.pat.id },
      );
    }
    if (c.text === 'the' && c.matches.length > 0)
      list.push({ type: 'invite.person', person: people.theo }, { type: 'search.change', text: 't' });
    if (c.text === NEW_ADDRESS && !c.invalid && c.matches.length === 0) list.push({ type: 'invite.submit' });
    if (c.announcement === `${people.tess.username} was removed.`) list.push({ type: 'dialog.close' });
  }

  const settled = (id: string, ...outcomes: unknown[]) => (isInvoking(s, id) ? (outcomes as ParticipantsEvent[]) : []);
  const found: MembersResponse = { ...LOADED, nonMembers: c.text.trim() === 'the' ? [people.theo] : [] };
  const invitee = c.invitee;
  return [
    ...list,
    ...settled(
      'fetchMembers',
      { type: 'xstate.done.actor.fetchMembers', output: LOADED },
      { type: 'xstate.error.actor.fetchMembers', error: offline },
    ),
    ...settled(
      'searchPeople',
      { type: 'xstate.done.actor.searchPeople', output: found },
      { type: 'xstate.error.actor.searchPeople', error: offline },
    ),
    ...(invitee && 'to' in invitee
      ? settled(
          'invitePerson',
          { type: 'xstate.done.actor.invitePerson', output: slimInvitation(people.theo, 77) },
          { type: 'xstate.error.actor.invitePerson', error: offline },
        )
      : settled(
          'invitePerson',
          { type: 'xstate.done.actor.invitePerson', output: slimInvitation(newcomer, 78) },
          { type: 'xstate.error.actor.invitePerson', error: alreadyInvited },
        )),
    ...settled(
      'participantRemoval',
      { type: 'xstate.done.actor.participantRemoval', output: { removed: true } },
      { type: 'xstate.done.actor.participantRemoval', output: { removed: false } },
    ),
  ].filter((event) => s.can(event));
}

function setup() {
  const fakes = {
    fetchMembers: controllableActor<MembersResponse, { sharedPortfolioId: number }>(),
    searchPeople: controllableActor<MembersResponse, { sharedPortfolioId: number; search: string }>(),
    invitePerson: controllableActor<Invitation, { sharedPortfolioId: number; invitee: Invitee }>(),
    cancelInvitation: controllableActor<Invitation, { invitationId: number }>(),
    removeMember: controllableActor<SharedPortfolio, { sharedPortfolioId: number; userId: number }>(),
  };
  const { actor, ux } = renderParticipantsDialog(
    {
      fetchMembers: fakes.fetchMembers.logic,
      searchPeople: fakes.searchPeople.logic,
      invitePerson: fakes.invitePerson.logic,
      cancelInvitation: fakes.cancelInvitation.logic,
      removeMember: fakes.removeMember.logic,
    },
    coverageInspector,
  );
  return { fakes, actor, ux };
}

type Harness = ReturnType<typeof setup>;
let h: Harness;

const dialog = () => screen.getByRole('dialog', { name: 'Edit Participants' });
const searchBox = () => within(dialog()).getByLabelText('Email') as HTMLInputElement;
const inviteButton = () => within(dialog()).getByRole('button', { name: 'Invite' }) as HTMLButtonElement;

/** The list shows exactly the machine's members, then its pending invitees (marked). */
function expectList(s: Snapshot) {
  const expected = participantsOf(s.context.membership).map(
    ({ person, pending }) => `${person.username}${pending ? ' (Pending)' : ''}`,
  );
  const list = within(dialog()).getByRole('list', { name: 'Portfolio Participants' });
  expect(
    within(list)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('span')!.textContent),
  ).toEqual(expected);
  expect(list.hasAttribute('data-bordered')).toBe(expected.length > 4);
}

/** Every state has a DOM assertion; a state without one fails the path. */
const stateChecks: Record<string, (s: Snapshot) => Promise<void>> = {
  closed: async (s) => {
    expect(screen.queryByRole('dialog')).toBeNull();
    const names = [people.lee, ...s.context.membership.members].map((p) => p.username).join(', ');
    expect(within(screen.getByRole('group', { name: 'Currently Shared with' })).getByText(names)).toBeTruthy();
  },
  'open.loading': async () => {
    expect(within(dialog()).getByRole('status', { name: 'Loading participants' })).toBeTruthy();
    expect(within(dialog()).queryByLabelText('Email')).toBeNull();
  },
  'open.loadFailed': async (s) => {
    const alert = within(dialog()).getByRole('alert');
    expect(within(alert).getByText(new RegExp(s.context.error!.message.replace(/[.?]/g, '\\$&')))).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  },
  'open.ready': async (s) => {
    expectList(s);
    expect(searchBox().value).toBe(s.context.text);
    expect(searchBox().readOnly).toBe(false);
    expect(document.getElementById(searchBox().getAttribute('aria-describedby')!)!.textContent).toBe(
      s.context.message ?? '',
    );
    expect(searchBox().getAttribute('aria-invalid')).toBe(s.context.invalid ? 'true' : null);
    const matches = within(dialog()).queryAllByRole('button', { name: /^Invite .+ \(/ });
    expect(matches.map((b) => b.getAttribute('aria-label'))).toEqual(
      s.context.matches.map((p) => `Invite ${p.username} (${p.email})`),
    );
    expect(within(dialog()).queryByRole('status', { name: 'Searching' }) !== null).toBe(
      s.matches({ open: { ready: 'searching' } }),
    );
    expect(inviteButton().disabled).toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(within(dialog()).getByRole('status', { name: '' }).textContent).toBe(s.context.announcement);
  },
  'open.inviting': async (s) => {
    expectList(s);
    expect(within(dialog()).getByRole('status', { name: 'Inviting' })).toBeTruthy();
    expect(searchBox().readOnly).toBe(true);
    expect(inviteButton().disabled).toBe(true);
  },
  'open.removing': async (s) => {
    const question = screen.getByRole('alertdialog', { name: 'Remove Participant' });
    expect(
      within(question).getByText(
        `Remove ${s.context.removal!.person.username} from this shared portfolio? They will no longer see or comment on its artifacts.`,
      ),
    ).toBeTruthy();
    expect((within(question).getByRole('button', { name: 'Yes' }) as HTMLButtonElement).disabled).toBe(false);
  },
};

async function checkState(snapshot: unknown) {
  const s = snapshot as Snapshot;
  const keys = Object.keys(stateChecks).filter((key) => s.matches(key as never));
  expect(keys, `a DOM check for ${JSON.stringify(s.value)}`).not.toEqual([]);
  for (const key of keys) await stateChecks[key]!(s);
}

/** Settles the view's one open request of a fake actor as the model's event says. */
function settle(name: keyof Harness['fakes'], checkInput: (input: never) => void = () => undefined) {
  return async (step: Step) => {
    const event = step.event as { type: string; output?: unknown; error?: unknown };
    const call = h.fakes[name].next();
    expect(h.fakes[name].calls).toEqual([]);
    checkInput(call.input as never);
    await answerAsStep(call, step);
    // Failures the dialog cannot show in place are alerted.
    const alerted = event.type.startsWith('xstate.error') && event.error !== alreadyInvited && name !== 'fetchMembers';
    const toasts = screen.queryAllByRole('alert').filter((a) => !a.closest('[role="dialog"]'));
    expect(toasts.map((a) => a.querySelector('p')?.textContent)).toEqual(
      alerted ? [(event.error as Error).message] : [],
    );
  };
}

afterEach(() => clearToasts());

const removalAnswers = {
  pending: { event: { type: 'xstate.done.actor.cancelInvitation', output: slimInvitation(people.pat, 51) } },
  member: {
    event: { type: 'xstate.done.actor.removeMember', output: slim(makeSharedPortfolio({ members: [people.lee] })) },
  },
};

describe('participants model', () => {
  const model = createPathModel(participantsMachine, { input: PARTICIPANTS_INPUT, events });
  for (const path of model.getShortestPaths()) {
    it(`${pathTitle(path)}`, async () => {
      h = setup();
      /** The request of a confirmed removal, answered as done: a pending invitee's invitation, a member. */
      const removalRequests = {
        pending: settle('cancelInvitation', (input: { invitationId: number }) =>
          expect(input).toEqual({ invitationId: 51 }),
        ),
        member: settle('removeMember', (input: { userId: number }) =>
          expect(input).toEqual({ sharedPortfolioId: 9, userId: people.tess.id }),
        ),
      };
      await path.test({
        states: { '*': checkState },
        events: {
          'dialog.open': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Edit Participants' }));
          },
          'dialog.close': async () => {
            await h.ux.click(within(dialog()).getByRole('button', { name: 'Close' }));
          },
          retry: async () => {
            await h.ux.click(within(dialog()).getByRole('button', { name: 'Try again' }));
          },
          'search.change': async (step: Step) => {
            const { text } = step.event as { text: string };
            const box = searchBox();
            if (text.length < box.value.length) {
              await h.ux.type(box, '{Backspace}'.repeat(box.value.length - text.length));
            } else {
              // One change with the whole text, as a paste makes it.
              await h.ux.click(box);
              await h.ux.paste(text.slice(box.value.length));
            }
            expect(box.value).toBe(text);
          },
          'invite.submit': async () => {
            await h.ux.click(inviteButton());
          },
          'invite.person': async (step: Step) => {
            const { person } = step.event as { person: typeof people.theo };
            await h.ux.click(
              within(dialog()).getByRole('button', { name: `Invite ${person.username} (${person.email})` }),
            );
          },
          'participant.remove': async (step: Step) => {
            const { userId } = step.event as { userId: number };
            const person = [people.tess, people.pat].find((p) => p.id === userId)!;
            await h.ux.click(within(dialog()).getByRole('button', { name: `Remove ${person.username}` }));
          },
          'xstate.done.actor.fetchMembers': settle('fetchMembers', (input: { sharedPortfolioId: number }) =>
            expect(input).toEqual({ sharedPortfolioId: 9 }),
          ),
          'xstate.error.actor.fetchMembers': settle('fetchMembers'),
          'xstate.done.actor.searchPeople': settle('searchPeople', (input: { search: string }) =>
            expect(input.search).toBe(searchBox().value.trim()),
          ),
          'xstate.error.actor.searchPeople': settle('searchPeople'),
          'xstate.done.actor.invitePerson': settle('invitePerson', (input: { invitee: Invitee }) =>
            expect(input.invitee).toEqual(
              'to' in input.invitee
                ? { to: people.theo.id, label: people.theo.username }
                : { email: NEW_ADDRESS, label: NEW_ADDRESS },
            ),
          ),
          'xstate.error.actor.invitePerson': settle('invitePerson'),
          'xstate.done.actor.participantRemoval': async (step: Step) => {
            const { output } = step.event as { output: { removed: boolean } };
            const question = within(screen.getByRole('alertdialog'));
            if (!output.removed) {
              await h.ux.click(question.getByRole('button', { name: 'NO' }));
              return;
            }
            // Yes, and the request succeeds (a pending invitee's invitation is deleted, a member removed).
            await h.ux.click(question.getByRole('button', { name: 'Yes' }));
            const { kind } = h.actor.getSnapshot().context.removal!;
            await removalRequests[kind](removalAnswers[kind]);
          },
        },
      });
    });
  }
});
