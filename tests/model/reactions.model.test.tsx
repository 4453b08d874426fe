import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock, type SnapshotFrom } from 'xstate';
import { reactionsMachine, type ReactionsEvent } from '../../src/machines/reactions/reactionsMachine.ts';
import { tallyReactions } from '../../src/machines/reactions/useReactions.ts';
import type { ReactionValue } from '../../src/schemas/catalog.ts';
import type { Reaction, SharedArtifactDetail } from '../../src/schemas/sharedArtifact.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { signOut } from '../../src/services/session.ts';
import { makeSharedArtifactDetail } from '../../src/test/sharedArtifactFixtures.ts';
import {
  accounts,
  FakeSharedApi,
  makeReaction,
  makeSharedArtifact,
  makeSharedPortfolio,
  people,
  renderSharedPortfolios,
} from '../../src/test/sharedHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { assertEveryStateChecked, coverageInspector, createPathModel } from './support/coverage.ts';
import { controllableActor, type Deferred } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(reactionsMachine);
afterEach(() => {
  clearToasts();
  signOut();
});

type Snapshot = SnapshotFrom<typeof reactionsMachine>;

// Lee's and Tess's ⭐ and Theo's 🌉 (the viewer is Tess).
const LEE_STAR = makeReaction({ id: 41, owner: people.lee.id, value: '⭐' });
const THEO_BRIDGE = makeReaction({ id: 42, owner: people.theo.id, value: '🌉' });
const TESS_STAR = makeReaction({ id: 43, owner: people.tess.id, value: '⭐' });
const TESS_BRIDGE = makeReaction({ id: 90, owner: people.tess.id, value: '🌉' });
const STORED = [LEE_STAR, THEO_BRIDGE, TESS_STAR];
const DETAIL = makeSharedArtifactDetail({ id: 70, reactions: STORED });
const offline = new NetworkError();
const refused = new ApiError(400, 'validation_error', 'Invalid reaction value.', '');
const REFETCH_MS = 1000;
const TIMER = 'xstate.after.refetchDelay.reactions.ready.sync.scheduled';
const MEANING: Record<string, string> = { '⭐': 'Exemplar', '🌉': 'Bridges grade levels' };

const ev = (type: string, payload: Record<string, unknown> = {}) => ({ type, ...payload }) as unknown as ReactionsEvent;
const sameIds = (a: readonly Reaction[], b: readonly Reaction[]) =>
  a.map((r) => r.id).join() === b.map((r) => r.id).join();

/**
 * The model's events in a state: toggles from the stored reactions (one while they are fetched
 * again, to show that a change then schedules another fetch), the answers of the calls under
 * way, and the timer while nothing is being sent.
 */
function events(snapshot: unknown): ReactionsEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: ReactionsEvent[] = [];
  if (s.matches('loading')) {
    list.push(
      ev('xstate.done.actor.getSharedArtifact', { output: DETAIL }),
      ev('xstate.error.actor.getSharedArtifact', { error: offline }),
    );
  }
  if (s.matches('loadFailed')) list.push({ type: 'retry' });
  if (!s.matches('ready')) return list;
  const idle = s.matches({ ready: { toggle: 'idle' } });
  const upToDate = s.matches({ ready: { sync: 'upToDate' } });
  const refetching = s.matches({ ready: { sync: 'refetching' } });
  if (idle && upToDate && sameIds(c.reactions, STORED))
    list.push({ type: 'reaction.toggle', value: '⭐' }, { type: 'reaction.toggle', value: '🌉' });
  // Tess puts her ⭐ back while the reactions are fetched after she took it away.
  if (idle && refetching && sameIds(c.reactions, [LEE_STAR, THEO_BRIDGE]))
    list.push({ type: 'reaction.toggle', value: '⭐' });
  if (s.matches({ ready: { toggle: 'adding' } })) {
    list.push(ev('xstate.done.actor.addReaction', { output: c.pending === '⭐' ? TESS_STAR : TESS_BRIDGE }));
    if (upToDate) list.push(ev('xstate.error.actor.addReaction', { error: refused }));
  }
  if (s.matches({ ready: { toggle: 'removing' } })) {
    list.push(
      ev('xstate.done.actor.removeReaction', { output: TESS_STAR }),
      ev('xstate.error.actor.removeReaction', { error: offline }),
    );
  }
  if (idle && s.matches({ ready: { sync: 'scheduled' } })) list.push(ev(TIMER));
  if (idle && refetching)
    list.push(
      ev('xstate.done.actor.getSharedArtifact', { output: DETAIL }),
      ev('xstate.error.actor.getSharedArtifact', { error: offline }),
    );
  return list.filter((event) => (event.type as string) === TIMER || s.can(event));
}

function pathName(path: { state: unknown; steps: readonly { event: unknown }[] }): string {
  const steps = path.steps
    .map((step) => step.event as { type: string; value?: string })
    .filter((e) => e.type !== 'xstate.init')
    .map((e) => {
      const type = e.type
        .replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) => (kind === 'done' ? '✓ ' : '✗ '))
        .replace(/^xstate\.after\..*$/, '1 s later');
      return e.value ? `${type} ${e.value}` : type;
    });
  return `${JSON.stringify((path.state as { value: unknown }).value)} ← ${steps.join(' → ') || 'start'}`;
}

function setup() {
  const api = new FakeSharedApi([
    makeSharedPortfolio({
      id: 9,
      members: [people.lee, people.tess, people.theo],
      sharedArtifacts: [makeSharedArtifact({ id: 70, responses: { artifactName: 'Ramp race' } })],
    }),
  ]);
  const fakes = {
    getSharedArtifact: controllableActor<SharedArtifactDetail, { artifactId: number }>(),
    addReaction: controllableActor<Reaction, { artifactId: number; value: ReactionValue }>(),
    removeReaction: controllableActor<Reaction, { reactionId: number }>(),
  };
  const clock = new SimulatedClock();
  const rendered = renderSharedPortfolios({
    path: '/shared-portfolios/9/artifacts/70',
    user: accounts.tess,
    api,
    fakes: {
      reactions: {
        getSharedArtifact: fakes.getSharedArtifact.logic,
        addReaction: fakes.addReaction.logic,
        removeReaction: fakes.removeReaction.logic,
      },
    },
    inspect: { reactions: coverageInspector },
    delays: { refetchDelay: REFETCH_MS },
    discussionClock: clock,
  });
  return { ...rendered, fakes, clock };
}

type Harness = ReturnType<typeof setup>;
let h: Harness;

/** Opens ADD REACTION from its button and picks `value` with the arrow keys (🌉 is third of four). */
async function pickWithKeyboard(value: ReactionValue) {
  bar().getByRole('button', { name: 'Add reaction' }).focus();
  await h.ux.keyboard('{Enter}');
  const picker = bar().getByRole('dialog', { name: 'ADD REACTION' });
  await h.ux.keyboard('{End}{ArrowLeft}');
  expect(document.activeElement).toBe(within(picker).getByRole('button', { name: MEANING[value]! }));
  await h.ux.keyboard('{Enter}');
}

function settle<T, I>(fake: { calls: { input: I; deferred: Deferred<T> }[] }): { input: I; deferred: Deferred<T> } {
  const call = fake.calls.at(-1);
  if (!call) throw new Error('The page made no request to settle');
  fake.calls.length = 0;
  return call;
}

async function expectAlert(message: string) {
  await waitFor(() => expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes(message))).toBe(true));
}

const bar = () =>
  within(within(screen.getByRole('region', { name: 'Artifact details' })).getByRole('region', { name: 'Reactions' }));
const barElement = () =>
  within(screen.getByRole('region', { name: 'Artifact details' })).getByRole('region', { name: 'Reactions' });
const toggles = () =>
  bar()
    .queryAllByRole('button')
    .filter((b) => b.hasAttribute('aria-pressed'));

/** What a chip shows in words (the emoji is decorative). */
const shownOf = (element: Element): string =>
  [...element.childNodes]
    .filter((n) => !(n instanceof Element && n.getAttribute('aria-hidden') === 'true'))
    .map((n) => n.textContent)
    .join('');

/** The counted reactions on screen (name and pressed), as the context holds them. */
async function expectTallies(s: Snapshot, disabled: boolean) {
  const expected = tallyReactions(s.context.reactions, accounts.tess.id)
    .filter((t) => t.count > 0)
    .map((t) => ({
      name: `${t.meaning}, ${t.count}`,
      shown: `${t.meaning} ${t.count}`,
      pressed: String(t.mine),
      disabled,
    }));
  await waitFor(() =>
    expect(
      toggles().map((b) => ({
        name: b.getAttribute('aria-label'),
        shown: shownOf(b),
        pressed: b.getAttribute('aria-pressed'),
        disabled: (b as HTMLButtonElement).disabled,
      })),
    ).toEqual(expected),
  );
}

const checks = {
  loading: () => {
    expect(bar().getByText('Loading reactions…')).toBeTruthy();
    expect(h.fakes.getSharedArtifact.calls.map((c) => c.input)).toEqual([{ artifactId: 70 }]);
  },
  loadFailed: async () => {
    expect(await bar().findByText(/The reactions could not be loaded\./)).toBeTruthy();
    expect(toggles()).toEqual([]);
  },
  'ready.toggle.idle': async (s: Snapshot) => {
    await expectTallies(s, false);
    expect((bar().getByRole('button', { name: 'Add reaction' }) as HTMLButtonElement).disabled).toBe(false);
  },
  'ready.toggle.adding': async (s: Snapshot) => {
    await expectTallies(s, true);
    expect(h.fakes.addReaction.calls.map((c) => c.input)).toEqual([{ artifactId: 70, value: s.context.pending }]);
  },
  'ready.toggle.removing': async (s: Snapshot) => {
    await expectTallies(s, true);
    expect(h.fakes.removeReaction.calls.map((c) => c.input)).toEqual([{ reactionId: TESS_STAR.id }]);
  },
  'ready.sync.upToDate': async (s: Snapshot) => {
    const sending = !s.matches({ ready: { toggle: 'idle' } });
    await waitFor(() => expect(barElement().getAttribute('aria-busy')).toBe(sending ? 'true' : null));
    expect(h.fakes.getSharedArtifact.calls).toHaveLength(0);
  },
  'ready.sync.scheduled': async () => {
    await waitFor(() => expect(barElement().getAttribute('aria-busy')).toBe('true'));
    expect(h.fakes.getSharedArtifact.calls).toHaveLength(0);
  },
  'ready.sync.refetching': async () => {
    await waitFor(() => expect(barElement().getAttribute('aria-busy')).toBe('true'));
    expect(h.fakes.getSharedArtifact.calls.map((c) => c.input)).toEqual([{ artifactId: 70 }]);
  },
};

describe('reactions model (the reactions of a shared artifact on Shared Portfolios)', () => {
  const model = createPathModel(reactionsMachine, {
    input: { artifactId: 70, viewerId: accounts.tess.id, mutable: true },
    events,
  });
  const paths = model.getShortestPaths();
  it('has a view check for every state and paths to all of them', () => {
    assertEveryStateChecked(reactionsMachine, checks);
    expect(paths.length).toBeGreaterThanOrEqual(6);
  });
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      h = setup();
      await screen.findByRole('region', { name: 'Artifact details' });
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'xstate.done.actor.getSharedArtifact': async () => {
            const call = settle(h.fakes.getSharedArtifact);
            expect(call.input).toEqual({ artifactId: 70 });
            await act(async () => call.deferred.resolve(DETAIL));
          },
          'xstate.error.actor.getSharedArtifact': async (step) => {
            const refetch = step.state.matches('ready');
            await act(async () => settle(h.fakes.getSharedArtifact).deferred.reject(offline));
            if (refetch) await expectAlert(offline.message);
          },
          retry: async () => {
            await h.ux.click(bar().getByRole('button', { name: 'Try again' }));
          },
          'reaction.toggle': async (step) => {
            const { value } = step.event as Extract<ReactionsEvent, { type: 'reaction.toggle' }>;
            // ⭐: the counted reaction's toggle; 🌉: the ADD REACTION picker, with the keyboard.
            await (value === '⭐'
              ? h.ux.click(bar().getByRole('button', { name: /^Exemplar, / }))
              : pickWithKeyboard(value));
          },
          'xstate.done.actor.addReaction': async (step) => {
            const { output } = step.event as unknown as { output: Reaction };
            // A fetch under way is dropped by the change (it is scheduled again).
            h.fakes.getSharedArtifact.calls.length = 0;
            const call = settle(h.fakes.addReaction);
            expect(call.input.value).toBe(output.value);
            await act(async () => call.deferred.resolve(output));
          },
          'xstate.error.actor.addReaction': async () => {
            await act(async () => settle(h.fakes.addReaction).deferred.reject(refused));
            await expectAlert(refused.message);
          },
          'xstate.done.actor.removeReaction': async () => {
            await act(async () => settle(h.fakes.removeReaction).deferred.resolve(TESS_STAR));
          },
          'xstate.error.actor.removeReaction': async () => {
            await act(async () => settle(h.fakes.removeReaction).deferred.reject(offline));
            await expectAlert(offline.message);
          },
          [TIMER]: async () => {
            await act(async () => h.clock.increment(REFETCH_MS));
          },
        },
      });
    });
  }
});
