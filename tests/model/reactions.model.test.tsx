import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { reactionsMachine, type ReactionsEvent } from '../../src/machines/reactions/reactionsMachine.ts';
import { tallyReactions } from '../../src/machines/reactions/useReactions.ts';
import type { ReactionValue } from '../../src/schemas/catalog.ts';
import type { Reaction } from '../../src/schemas/sharedArtifact.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { signOut } from '../../src/services/session.ts';
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
const offline = new NetworkError();
const refused = new ApiError(400, 'validation_error', 'Invalid reaction value.', '');
const MEANING: Record<string, string> = { '⭐': 'Exemplar', '🌉': 'Bridges grade levels' };

const ev = (type: string, payload: Record<string, unknown> = {}) => ({ type, ...payload }) as unknown as ReactionsEvent;
const sameIds = (a: readonly Reaction[], b: readonly Reaction[]) =>
  a.map((r) => r.id).join() === b.map((r) => r.id).join();

/**
 * The model's events in a state: both toggles from the stored reactions (removing Tess's ⭐,
 * adding a 🌉), and the answers of the call under way.
 */
function events(snapshot: unknown): ReactionsEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: ReactionsEvent[] = [];
  if (s.matches('idle') && sameIds(c.reactions, STORED))
    list.push({ type: 'reaction.toggle', value: '⭐' }, { type: 'reaction.toggle', value: '🌉' });
  if (s.matches('adding')) {
    list.push(
      ev('xstate.done.actor.addReaction', { output: c.pending === '⭐' ? TESS_STAR : TESS_BRIDGE }),
      ev('xstate.error.actor.addReaction', { error: refused }),
    );
  }
  if (s.matches('removing')) {
    list.push(
      ev('xstate.done.actor.removeReaction', { output: TESS_STAR }),
      ev('xstate.error.actor.removeReaction', { error: offline }),
    );
  }
  return list.filter((event) => s.can(event));
}

function pathName(path: { state: unknown; steps: readonly { event: unknown }[] }): string {
  const steps = path.steps
    .map((step) => step.event as { type: string; value?: string })
    .filter((e) => e.type !== 'xstate.init')
    .map((e) => {
      const type = e.type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) =>
        kind === 'done' ? '✓ ' : '✗ ',
      );
      return e.value ? `${type} ${e.value}` : type;
    });
  return `${JSON.stringify((path.state as { value: unknown }).value)} ← ${steps.join(' → ') || 'start'}`;
}

/** The artifact's discussion loads Lee's, Theo's and Tess's reactions (from `api`); the bar's calls wait for the path. */
function setup() {
  const api = new FakeSharedApi(
    [
      makeSharedPortfolio({
        id: 9,
        members: [people.lee, people.tess, people.theo],
        sharedArtifacts: [makeSharedArtifact({ id: 70, responses: { artifactName: 'Ramp race' } })],
      }),
    ],
    { 70: { reactions: STORED } },
  );
  const fakes = {
    addReaction: controllableActor<Reaction, { artifactId: number; value: ReactionValue }>(),
    removeReaction: controllableActor<Reaction, { reactionId: number }>(),
  };
  const rendered = renderSharedPortfolios({
    path: '/shared-portfolios/9/artifacts/70',
    user: accounts.tess,
    api,
    fakes: {
      reactions: {
        addReaction: fakes.addReaction.logic,
        removeReaction: fakes.removeReaction.logic,
      },
    },
    inspect: { discussion: coverageInspector },
  });
  return { ...rendered, api, fakes };
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

/** Nothing was fetched after the first load: the discussion patched the answers in (decision 033). */
const expectNoRefetch = () =>
  expect(h.api.calls.filter((c) => c.startsWith('getSharedArtifact') || c.startsWith('getPortfolio'))).toEqual([
    'getPortfolio 9',
    'getSharedArtifact 70',
  ]);

const checks = {
  idle: async (s: Snapshot) => {
    await expectTallies(s, false);
    expect((bar().getByRole('button', { name: 'Add reaction' }) as HTMLButtonElement).disabled).toBe(false);
    await waitFor(() => expect(barElement().getAttribute('aria-busy')).toBeNull());
    expectNoRefetch();
  },
  adding: async (s: Snapshot) => {
    await expectTallies(s, true);
    expect(barElement().getAttribute('aria-busy')).toBe('true');
    expect(h.fakes.addReaction.calls.map((c) => c.input)).toEqual([{ artifactId: 70, value: s.context.pending }]);
  },
  removing: async (s: Snapshot) => {
    await expectTallies(s, true);
    expect(barElement().getAttribute('aria-busy')).toBe('true');
    expect(h.fakes.removeReaction.calls.map((c) => c.input)).toEqual([{ reactionId: TESS_STAR.id }]);
  },
};

describe('reactions model (the reactions of a shared artifact on Shared Portfolios)', () => {
  const model = createPathModel(reactionsMachine, {
    input: { artifactId: 70, viewerId: accounts.tess.id, mutable: true, reactions: STORED },
    events,
  });
  const paths = model.getShortestPaths();
  it('has a view check for every state and paths to all of them', () => {
    assertEveryStateChecked(reactionsMachine, checks);
    expect(paths.length).toBeGreaterThanOrEqual(4);
  });
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      h = setup();
      await screen.findByRole('region', { name: 'Artifact details' });
      // The artifact is read whole with its discussion before it is drawn.
      await screen.findByRole('region', { name: 'Reactions' });
      await bar().findByRole('button', { name: 'Add reaction' });
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'reaction.toggle': async (step) => {
            const { value } = step.event as Extract<ReactionsEvent, { type: 'reaction.toggle' }>;
            // ⭐: the counted reaction's toggle; 🌉: the ADD REACTION picker, with the keyboard.
            await (value === '⭐'
              ? h.ux.click(bar().getByRole('button', { name: /^Exemplar, / }))
              : pickWithKeyboard(value));
          },
          'xstate.done.actor.addReaction': async (step) => {
            const { output } = step.event as unknown as { output: Reaction };
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
        },
      });
    });
  }
});
