import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ReactionValue } from '../../schemas/catalog.ts';
import type { Reaction, SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import { makeReaction, makeSharedArtifactDetail } from '../../test/sharedArtifactFixtures.ts';
import { people } from '../../test/sharedFixtures.ts';
import { reactionsMachine, type ReactionsInput } from './reactionsMachine.ts';

const theirStar = makeReaction({ id: 41, value: '⭐' });
const myStar = makeReaction({ id: 42, value: '⭐', owner: people.tess.id });

/** The reactions loaded with Theo's and Tess's ⭐; adding and removing answer with the reaction. */
async function start(input: Partial<ReactionsInput> = {}) {
  const actor = createActor(
    reactionsMachine.provide({
      actors: {
        getSharedArtifact: fromPromise<SharedArtifactDetail, { artifactId: number }>(async () =>
          makeSharedArtifactDetail({ id: 70, reactions: [theirStar, myStar] }),
        ),
        addReaction: fromPromise<Reaction, { artifactId: number; value: ReactionValue }>(async ({ input: { value } }) =>
          makeReaction({ id: 43, value, owner: people.tess.id }),
        ),
        removeReaction: fromPromise<Reaction, { reactionId: number }>(async () => myStar),
      },
      actions: { notify: () => undefined },
      delays: { refetchDelay: 60_000 },
    }),
    { input: { artifactId: 70, viewerId: people.tess.id, mutable: true, ...input } },
  ).start();
  await waitFor(actor, (s) => s.matches('ready'));
  return actor;
}

describe('reactionsMachine guards', () => {
  it('isMine: toggling a value the viewer gave removes it; another value is added', async () => {
    const actor = await start();
    actor.send({ type: 'reaction.toggle', value: '⭐' });
    expect(actor.getSnapshot().matches({ ready: { toggle: 'removing' } })).toBe(true);
    const other = await start();
    other.send({ type: 'reaction.toggle', value: '🔖' });
    expect(other.getSnapshot().matches({ ready: { toggle: 'adding' } })).toBe(true);
  });

  it('canReact: a viewer who may not react here toggles nothing', async () => {
    const actor = await start({ mutable: false });
    expect(actor.getSnapshot().can({ type: 'reaction.toggle', value: '⭐' })).toBe(false);
  });
});

describe('reactionsMachine actions', () => {
  it('addToList and removeFromList patch the list with the answer', async () => {
    const actor = await start();
    actor.send({ type: 'reaction.toggle', value: '⭐' });
    await waitFor(actor, (s) => s.matches({ ready: { toggle: 'idle' } }));
    expect(actor.getSnapshot().context.reactions.map((r) => r.id)).toEqual([theirStar.id]);
    actor.send({ type: 'reaction.toggle', value: '⭐' });
    await waitFor(actor, (s) => s.matches({ ready: { toggle: 'idle' } }));
    expect(actor.getSnapshot().context.reactions.map((r) => r.id)).toEqual([theirStar.id, 43]);
  });

  it('markPending holds the value under way; clearPending drops it', async () => {
    const actor = await start();
    actor.send({ type: 'reaction.toggle', value: '⭐' });
    expect(actor.getSnapshot().context.pending).toBe('⭐');
    await waitFor(actor, (s) => s.matches({ ready: { toggle: 'idle' } }));
    expect(actor.getSnapshot().context.pending).toBeNull();
  });
});
