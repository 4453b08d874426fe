import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup, waitFor, type AnyActorRef } from 'xstate';
import type { ReactionValue } from '../../schemas/catalog.ts';
import type { Reaction } from '../../schemas/sharedArtifact.ts';
import { makeReaction } from '../../test/sharedArtifactFixtures.ts';
import { people } from '../../test/sharedFixtures.ts';
import { reactionsMachine, type ReactionsInput } from './reactionsMachine.ts';

const theirStar = makeReaction({ id: 41, value: '⭐' });
const myStar = makeReaction({ id: 42, value: '⭐', owner: people.tess.id });
const added = makeReaction({ id: 43, value: '🔖', owner: people.tess.id });

/** The bar as its discussion starts it, with Theo's and Tess's ⭐; adding and removing answer with the reaction. */
const logic = reactionsMachine.provide({
  actors: {
    addReaction: fromPromise<Reaction, { artifactId: number; value: ReactionValue }>(async ({ input: { value } }) => ({
      ...added,
      value,
    })),
    removeReaction: fromPromise<Reaction, { reactionId: number }>(async () => myStar),
  },
  actions: { notify: () => undefined },
});

const input = (overrides: Partial<ReactionsInput> = {}): ReactionsInput => ({
  artifactId: 70,
  viewerId: people.tess.id,
  mutable: true,
  reactions: [theirStar, myStar],
  ...overrides,
});

const start = (overrides: Partial<ReactionsInput> = {}) => createActor(logic, { input: input(overrides) }).start();

/** The bar as the child of a parent that records what it hears. */
function startAsChild() {
  const heard: unknown[] = [];
  const parent = createActor(
    setup({ actors: { bar: logic } }).createMachine({
      invoke: { id: 'bar', src: 'bar', input: input() },
      on: { '*': { actions: ({ event }) => heard.push(event) } },
    }),
  ).start();
  return { bar: parent.getSnapshot().children['bar'] as AnyActorRef, heard };
}

describe('reactionsMachine guards', () => {
  it('isMine: toggling a value the viewer gave removes it; another value is added', () => {
    const actor = start();
    actor.send({ type: 'reaction.toggle', value: '⭐' });
    expect(actor.getSnapshot().matches('removing')).toBe(true);
    const other = start();
    other.send({ type: 'reaction.toggle', value: '🔖' });
    expect(other.getSnapshot().matches('adding')).toBe(true);
  });

  it('canReact: a viewer who may not react here toggles nothing', () => {
    const actor = start({ mutable: false });
    expect(actor.getSnapshot().can({ type: 'reaction.toggle', value: '⭐' })).toBe(false);
  });
});

describe('reactionsMachine actions', () => {
  it('addToList and removeFromList patch the bar’s own list with the answer', async () => {
    const actor = start();
    actor.send({ type: 'reaction.toggle', value: '⭐' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.reactions.map((r) => r.id)).toEqual([theirStar.id]);
    actor.send({ type: 'reaction.toggle', value: '⭐' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.reactions.map((r) => r.id)).toEqual([theirStar.id, added.id]);
  });

  it('markPending holds the value under way; clearPending drops it', async () => {
    const actor = start();
    actor.send({ type: 'reaction.toggle', value: '⭐' });
    expect(actor.getSnapshot().context.pending).toBe('⭐');
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.pending).toBeNull();
  });

  it('reportRemoved and reportAdded: the discussion (the parent) hears of the reaction removed or added', async () => {
    const { bar, heard } = startAsChild();
    bar.send({ type: 'reaction.toggle', value: '⭐' });
    await waitFor(bar, (s) => s.matches('idle'));
    bar.send({ type: 'reaction.toggle', value: '🔖' });
    await waitFor(bar, (s) => s.matches('idle'));
    expect(heard).toEqual([
      { type: 'reaction.removed', reaction: myStar },
      { type: 'reaction.added', reaction: added },
    ]);
  });
});
