import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { makeSharedArtifact, makeSharedPortfolio } from '../../test/sharedFixtures.ts';
import type { DiscussionChange } from '../sharedArtifactDiscussion/discussionSelectors.ts';
import { withDiscussion } from './discussionPatch.ts';
import { portfolioBrowserMachine } from './portfolioBrowserMachine.ts';
import { provideBrowserServices } from './provideBrowserServices.ts';
import type { BrowsedPortfolio, BrowsedPortfolioListItem } from './selectors.ts';

const plc = makeSharedPortfolio({
  id: 9,
  commentCount: 1,
  sharedArtifacts: [
    makeSharedArtifact({ id: 70, commentCount: 1, commentTexts: ['Nice ramp.'] }),
    makeSharedArtifact({ id: 71, responses: { artifactName: 'Food web' } }),
  ],
});
const change: DiscussionChange = {
  artifactId: 70,
  commentCount: 2,
  commentTexts: ['Nice ramp.', 'Try a steeper one.'],
  reactions: { '🔖': false, '⭐': true, '🌉': false, '❓': false },
  portfolioCommentCount: 2,
};

/** The shared browser on artifact 70 of the PLC; it never fetches the portfolio again. */
async function start() {
  let fetched = 0;
  const actor = createActor(
    provideBrowserServices(portfolioBrowserMachine, {
      listPortfolios: fromPromise<BrowsedPortfolioListItem[], { owner: number | null }>(async () => [plc]),
      getPortfolio: fromPromise<BrowsedPortfolio, { portfolioId: number }>(async () => {
        fetched += 1;
        return plc;
      }),
    }),
    { input: { mode: 'shared', owner: null, portfolioId: 9, artifactId: 70 } },
  ).start();
  await waitFor(actor, (s) => s.matches({ ready: 'loaded' }));
  return { actor, fetched: () => fetched };
}

const artifactsOf = (portfolio: BrowsedPortfolio | null) => (portfolio as SharedPortfolio).sharedArtifacts;

describe('withDiscussion', () => {
  it('patches the one artifact’s counts, texts and flags, and the portfolio’s count when known', () => {
    const patched = withDiscussion(plc, change) as SharedPortfolio;
    expect(patched.commentCount).toBe(2);
    expect(patched.sharedArtifacts[0]).toMatchObject({ commentCount: 2, commentTexts: change.commentTexts });
    expect(patched.sharedArtifacts[0]!.reactions['⭐']).toBe(true);
    expect(patched.sharedArtifacts[1]).toBe(plc.sharedArtifacts[1]);
    expect((withDiscussion(plc, { ...change, portfolioCommentCount: null }) as SharedPortfolio).commentCount).toBe(1);
  });
});

describe('portfolioBrowser actions of shared portfolios', () => {
  it('patchDiscussion: the row follows the discussion (count and search text) without a fetch', async () => {
    const { actor, fetched } = await start();
    actor.send({ type: 'discussion.changed', change });
    const { context } = actor.getSnapshot();
    expect(context.rows.find((r) => r.id === 70)?.comments).toBe(2);
    expect(artifactsOf(context.portfolio)[0]!.commentTexts).toEqual(change.commentTexts);
    expect(fetched()).toBe(1);
  });

  it('removeRow: a shared artifact deleted in its pane leaves the table; the pane keeps the artifact', async () => {
    const { actor, fetched } = await start();
    actor.send({ type: 'artifact.removed', artifactId: 70 });
    const { context } = actor.getSnapshot();
    expect(context.rows.map((r) => r.id)).toEqual([71]);
    expect(artifactsOf(context.portfolio).map((a) => a.id)).toEqual([71]);
    expect(context.artifactId).toBe(70);
    expect(fetched()).toBe(1);
  });
});
