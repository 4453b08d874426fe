import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { ReactionValue } from '../../src/schemas/catalog.ts';
import type { Reaction, SharedArtifactDetail } from '../../src/schemas/sharedArtifact.ts';
import { tallyReactions } from '../../src/machines/reactions/useReactions.ts';
import { mayBeDeleted, type CommentAnswer } from '../../src/machines/sharedArtifactDiscussion/discussionSelectors.ts';
import {
  sharedArtifactDiscussionMachine,
  type DiscussionEvent,
} from '../../src/machines/sharedArtifactDiscussion/sharedArtifactDiscussionMachine.ts';
import { NetworkError } from '../../src/services/errors.ts';
import { signOut } from '../../src/services/session.ts';
import { asSeenBy, SHARED_ARTIFACT_ABILITIES } from '../../src/test/abilityFixtures.ts';
import { makeSharedArtifactDetail } from '../../src/test/sharedArtifactFixtures.ts';
import {
  accounts,
  FakeSharedApi,
  makeComment,
  makeReaction,
  makeSharedArtifact,
  makeSharedPortfolio,
  people,
  renderSharedPortfolios,
} from '../../src/test/sharedHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { assertEveryStateChecked, coverageInspector, createPathModel } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { modelEvent, pathName, stepLabel } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';
import { AT, commentAtMoment, momentFakes, reactAtMoment, VIDEO } from './support/sharedMoments.ts';

trackCoverage(sharedArtifactDiscussionMachine);
afterEach(() => {
  clearToasts();
  signOut();
});

type Snapshot = SnapshotFrom<typeof sharedArtifactDiscussionMachine>;
const ev = modelEvent<DiscussionEvent>();
const offline = new NetworkError();

// Tess's artifact 70 (with a video), not yet discussed: she may delete it.
// As `GET /shared-artifacts/70` answers: whole, with its video.
const DETAIL: SharedArtifactDetail = makeSharedArtifactDetail({
  id: 70,
  videos: [VIDEO],
  abilities: SHARED_ARTIFACT_ABILITIES.worker,
});
const own = { owner: people.tess.id, username: people.tess.username };
const POSTED = asSeenBy(makeComment({ id: 33, ...own, text: 'Try a steeper ramp.' }), people.tess.id);
const AT_MOMENT = asSeenBy(
  makeComment({ id: 34, ...own, text: 'The car slows here.', moment: { media: VIDEO.id, start: AT, end: null } }),
  people.tess.id,
);
const answer = (comment: typeof POSTED): CommentAnswer => ({
  ...comment,
  sharedArtifactComments: [comment],
  sharedPortfolioCommentCount: 1,
});
const MY_STAR = makeReaction({ id: 43, owner: people.tess.id, value: '⭐' });
const MY_QUESTION_AT = makeReaction({
  id: 44,
  owner: people.tess.id,
  value: '❓',
  moment: { media: VIDEO.id, start: AT, end: null },
});

const untouched = (s: Snapshot) => s.context.comments.length === 0 && s.context.reactions.length === 0;

/**
 * The model's events: the load answers; each change once from the untouched discussion (a
 * comment posted in the thread, a reaction added in the bar, a comment and a reaction placed at
 * a moment), and the reaction removed again. Asking to delete changes nothing in the discussion,
 * so it has a path of its own below.
 */
function events(snapshot: unknown): DiscussionEvent[] {
  const s = snapshot as Snapshot;
  const list: DiscussionEvent[] = [];
  if (s.matches('loading'))
    list.push(
      ev('xstate.done.actor.getSharedArtifact', { output: DETAIL }),
      ev('xstate.error.actor.getSharedArtifact', { error: offline }),
    );
  if (s.matches('loadFailed')) list.push({ type: 'retry' });
  if (s.matches('ready') && untouched(s))
    list.push(
      { type: 'comments.answered', answer: answer(POSTED) },
      { type: 'reaction.added', reaction: MY_STAR },
      { type: 'moment.posted', kind: 'comment', answer: answer(AT_MOMENT) },
      { type: 'moment.posted', kind: 'reaction', answer: MY_QUESTION_AT },
    );
  if (s.matches('ready') && s.context.reactions.length === 1 && s.context.reactions[0] === MY_STAR)
    list.push({ type: 'reaction.removed', reaction: MY_STAR });
  return list.filter((event) => s.can(event));
}

function setup() {
  const api = new FakeSharedApi([
    makeSharedPortfolio({
      id: 9,
      owner: people.lee,
      members: [people.lee, people.tess, people.theo],
      sharedArtifacts: [
        makeSharedArtifact({ id: 70, owner: people.tess, responses: { artifactName: 'Ramp race' }, videos: [VIDEO] }),
      ],
    }),
  ]);
  const fakes = {
    getSharedArtifact: controllableActor<SharedArtifactDetail, { artifactId: number }>(),
    addComment: controllableActor<CommentAnswer, { artifactId: number; text: string }>(),
    addReaction: controllableActor<Reaction, { artifactId: number; value: ReactionValue }>(),
    removeReaction: controllableActor<Reaction, { reactionId: number }>(),
  };
  const moments = momentFakes();
  const rendered = renderSharedPortfolios({
    path: '/shared-portfolios/9/artifacts/70',
    user: accounts.tess,
    api,
    fakes: {
      discussion: { getSharedArtifact: fakes.getSharedArtifact.logic },
      comment: { addComment: fakes.addComment.logic },
      reactions: { addReaction: fakes.addReaction.logic, removeReaction: fakes.removeReaction.logic },
    },
    inspect: { discussion: coverageInspector },
    moments: moments.moments,
  });
  return { ...rendered, api, fakes, moments };
}

let h: ReturnType<typeof setup>;

const pane = () => within(screen.getByRole('region', { name: 'Artifact details' }));
const thread = () => within(pane().getByRole('region', { name: 'Comments' }));
const bar = () => within(pane().getByRole('region', { name: 'Reactions' }));
const deleteButton = () => pane().queryByRole('button', { name: 'Delete Artifact' });
const countInTable = () =>
  within(screen.getByRole('row', { name: /Ramp race/ }))
    .getAllByRole('gridcell')
    .at(-1)?.textContent;

const checks = {
  loading: async () => {
    // The artifact is read whole with its discussion: a placeholder holds its place meanwhile.
    expect(pane().getByRole('status', { name: 'Loading artifact' })).toBeTruthy();
    expect(pane().queryByRole('region', { name: 'Comments' })).toBeNull();
    expect(deleteButton()).toBeNull();
    // The load starts as the discussion's actor starts, which may come just after the pane is drawn.
    await waitFor(() => expect(h.fakes.getSharedArtifact.calls.map((c) => c.input)).toEqual([{ artifactId: 70 }]));
  },
  loadFailed: async () => {
    const alert = await pane().findByRole('alert');
    expect(alert.textContent).toContain('The artifact could not be loaded');
    expect(alert.textContent).toContain(offline.message);
    expect(pane().queryByRole('region', { name: 'Comments' })).toBeNull();
    expect(deleteButton()).toBeNull();
  },
  ready: async (s: Snapshot) => {
    // The thread, the reactions and the moments on the timeline are the discussion's.
    await waitFor(() =>
      expect(
        thread()
          .queryAllByRole('article')
          .map((a) => a.getAttribute('id')),
      ).toEqual(s.context.comments.map((c) => `comment-${c.id}`)),
    );
    const given = tallyReactions(s.context.reactions, accounts.tess.id).filter((t) => t.count > 0);
    expect(
      bar()
        .queryAllByRole('button')
        .filter((b) => b.hasAttribute('aria-pressed'))
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(given.map((t) => `${t.meaning}, ${t.count}`));
    const atMoments = [...s.context.comments, ...s.context.reactions].filter((x) => x.moment !== null).length;
    expect(
      screen.getByText(atMoments === 0 ? 'No moments on the timeline yet.' : `${atMoments} moment on the timeline.`),
    ).toBeTruthy();
    // Delete Artifact only while nobody commented or reacted.
    expect(deleteButton() !== null).toBe(mayBeDeleted(s.context.artifact, s.context.comments, s.context.reactions));
    // Nothing is fetched again: the table's row is patched with the count.
    expect(h.fakes.getSharedArtifact.calls).toEqual([]);
    expect(h.api.calls.filter((c) => c.startsWith('getPortfolio'))).toEqual(['getPortfolio 9']);
    await waitFor(() => expect(countInTable()).toBe(String(s.context.comments.length)));
  },
};

const pathEvents = {
  'xstate.done.actor.getSharedArtifact': async () => {
    await act(async () => h.fakes.getSharedArtifact.next().deferred.resolve(DETAIL));
  },
  'xstate.error.actor.getSharedArtifact': async () => {
    await act(async () => h.fakes.getSharedArtifact.next().deferred.reject(offline));
  },
  retry: async () => {
    await h.ux.click(pane().getByRole('button', { name: 'Try again' }));
  },
  'comments.answered': async () => {
    await h.ux.type(thread().getByPlaceholderText('Write a comment...'), POSTED.text);
    await h.ux.click(thread().getByRole('button', { name: 'Post Comment' }));
    expect(h.fakes.addComment.calls.map((c) => c.input)).toEqual([{ artifactId: 70, text: POSTED.text }]);
    await act(async () => h.fakes.addComment.next().deferred.resolve(answer(POSTED)));
  },
  'reaction.added': async () => {
    await h.ux.click(bar().getByRole('button', { name: 'Add reaction' }));
    await h.ux.click(bar().getByRole('button', { name: 'Exemplar' }));
    expect(h.fakes.addReaction.calls.map((c) => c.input)).toEqual([{ artifactId: 70, value: '⭐' }]);
    await act(async () => h.fakes.addReaction.next().deferred.resolve(MY_STAR));
  },
  'reaction.removed': async () => {
    await h.ux.click(bar().getByRole('button', { name: 'Exemplar, 1' }));
    expect(h.fakes.removeReaction.calls.map((c) => c.input)).toEqual([{ reactionId: MY_STAR.id }]);
    await act(async () => h.fakes.removeReaction.next().deferred.resolve(MY_STAR));
  },
  'moment.posted': async (step: { event: unknown }) => {
    const posted = step.event as Extract<DiscussionEvent, { type: 'moment.posted' }>;
    await (posted.kind === 'comment'
      ? commentAtMoment(h.ux, h.moments, AT_MOMENT.text, posted.answer)
      : reactAtMoment(h.ux, h.moments, 'I have a question', posted.answer));
  },
  'artifact.delete': async () => {
    await h.ux.click(deleteButton()!);
    // The deletion (its own machine) asks its question.
    expect(await screen.findByRole('alertdialog', { name: 'Delete Artifact' })).toBeTruthy();
  },
};

describe('sharedArtifactDiscussion model (the discussion of a shared artifact on Shared Portfolios)', () => {
  const model = createPathModel(sharedArtifactDiscussionMachine, {
    input: { artifactId: 70, viewerId: accounts.tess.id, mutable: true },
    events,
  });
  const paths = model.getShortestPaths();
  it('has a view check for every state and paths to all of them', () => {
    assertEveryStateChecked(sharedArtifactDiscussionMachine, checks);
    expect(paths.length).toBeGreaterThanOrEqual(5);
  });
  const deletion = model.getPathsFromEvents([
    ev('xstate.done.actor.getSharedArtifact', { output: DETAIL }),
    { type: 'artifact.delete' },
  ]);
  for (const path of [...paths, ...deletion]) {
    const name = pathName<{ type: string; kind?: string }>(
      path,
      (e) => `${stepLabel(e.type)}${e.kind ? ` ${e.kind}` : ''}`,
    );
    it(`${name}`, async () => {
      h = setup();
      await screen.findByRole('region', { name: 'Artifact details' });
      await path.test({ states: checkStates<Snapshot>(checks), events: pathEvents as never });
    });
  }
});
