import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { commentMachine, type CommentEvent } from '../../src/machines/comment/commentMachine.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { asSeenBy } from '../../src/test/abilityFixtures.ts';
import { signOut } from '../../src/services/session.ts';
import { formatRelative } from '../../src/schemas/formatting.ts';
import { isEdited } from '../../src/views/shared/discussion/CommentText.tsx';
import {
  accounts,
  FakeSharedApi,
  makeComment,
  makeSharedArtifact,
  makeSharedPortfolio,
  people,
  renderSharedPortfolios,
} from '../../src/test/sharedHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { ANSWERS, DETAIL, MINE, type Answer } from './support/commentFixtures.ts';
import { AT, commentAtMoment, momentFakes, VIDEO } from './support/sharedMoments.ts';
import { assertEveryStateChecked, coverageInspector, createPathModel } from './support/coverage.ts';
import { controllableActor, type Deferred } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(commentMachine);
afterEach(() => {
  clearToasts();
  signOut();
});

type Snapshot = SnapshotFrom<typeof commentMachine>;
const offline = new NetworkError();
const refused = new ApiError(400, 'validation_error', 'Please enter a comment.', '');
// Tess's comment at 0:05 of the video, and the thread the server answers with it.
const AT_MOMENT = asSeenBy(
  makeComment({
    id: 34,
    owner: accounts.tess.id,
    username: accounts.tess.username,
    text: 'The car slows here.',
    moment: { media: VIDEO.id, start: AT, end: null },
  }),
  accounts.tess.id,
);
const WITH_MOMENT = [...DETAIL.comments, AT_MOMENT];
const MOMENT_ANSWER: Answer = { ...AT_MOMENT, sharedArtifactComments: WITH_MOMENT, sharedPortfolioCommentCount: 3 };

const DRAFTS = { blank: '   ', text: 'Nice idea', more: 'Nice idea!' };
const EDIT_TEXT = 'We tried ball bearings.';

const ev = (type: string, payload: Record<string, unknown> = {}) => ({ type, ...payload }) as unknown as CommentEvent;

/**
 * The model's events in a state. To keep the paths few while taking every transition: the
 * composer acts while no comment is edited; a comment is edited or deleted while the composer is
 * empty; and the discussion's update (a comment posted at a moment) comes to the untouched thread.
 */
function events(snapshot: unknown): CommentEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: CommentEvent[] = [];
  const composerIdle = s.matches({ composer: 'idle' });
  const viewing = s.matches({ editor: 'viewing' });
  const untouched = c.comments === DETAIL.comments;
  if (viewing) {
    if (composerIdle && c.draft === '') {
      list.push(
        { type: 'comment.draftChange', text: DRAFTS.text },
        { type: 'comment.draftChange', text: DRAFTS.blank },
      );
      if (untouched) list.push({ type: 'comments.update', comments: WITH_MOMENT });
    }
    if (s.matches({ composer: 'drafting' }) && c.draft === DRAFTS.text) {
      list.push({ type: 'comment.draftChange', text: '' }, { type: 'comment.draftChange', text: DRAFTS.more });
    }
    if (c.draft === DRAFTS.text) list.push({ type: 'comment.submit' });
  }
  if (s.matches({ composer: 'posting' })) {
    list.push(
      ev('xstate.done.actor.addComment', { output: ANSWERS.add }),
      ev('xstate.error.actor.addComment', { error: refused }),
    );
  }
  if (composerIdle && c.draft === '') {
    const mineThere = c.comments.some((x) => x.id === MINE.id && x.text === MINE.text);
    if (viewing && mineThere && untouched)
      list.push({ type: 'comment.edit', commentId: MINE.id }, { type: 'comment.delete', commentId: MINE.id });
    if (s.matches({ editor: 'editing' })) {
      if (c.editing?.text === MINE.text)
        list.push({ type: 'comment.editChange', text: EDIT_TEXT }, { type: 'comment.cancelEdit' });
      if (c.editing?.text === EDIT_TEXT) list.push({ type: 'comment.save' });
    }
    if (s.matches({ editor: 'saving' })) {
      list.push(
        ev('xstate.done.actor.editComment', { output: ANSWERS.edit }),
        ev('xstate.error.actor.editComment', { error: offline }),
      );
    }
    if (s.matches({ editor: 'confirmingDelete' }))
      list.push({ type: 'comment.confirmDelete' }, { type: 'comment.cancelDelete' });
    if (s.matches({ editor: 'deleting' })) {
      list.push(
        ev('xstate.done.actor.deleteComment', { output: ANSWERS.remove }),
        ev('xstate.error.actor.deleteComment', { error: offline }),
      );
    }
  }
  return list.filter((event) => s.can(event));
}

/** A readable test name: where the path ends and the steps on the way. */
function pathName(path: { state: unknown; steps: readonly { event: unknown }[] }): string {
  const steps = path.steps
    .map((step) => step.event as { type: string; text?: string; error?: Error })
    .filter((e) => e.type !== 'xstate.init')
    .map((e) => {
      const type = e.type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) =>
        kind === 'done' ? '✓ ' : '✗ ',
      );
      return e.text !== undefined ? `${type} ${JSON.stringify(e.text)}` : type;
    });
  return `${JSON.stringify((path.state as { value: unknown }).value)} ← ${steps.join(' → ') || 'start'}`;
}

/** The artifact (with a video) as its discussion loads it (at once); the thread's calls wait for the path. */
function setup() {
  const api = new FakeSharedApi(
    [
      makeSharedPortfolio({
        id: 9,
        members: [people.lee, people.tess, people.theo],
        sharedArtifacts: [makeSharedArtifact({ id: 70, responses: { artifactName: 'Ramp race' }, videos: [VIDEO] })],
      }),
    ],
    { 70: { comments: [...DETAIL.comments] } },
  );
  const loads: number[] = [];
  const fakes = {
    addComment: controllableActor<Answer, { artifactId: number; text: string }>(),
    editComment: controllableActor<Answer, { commentId: number; text: string }>(),
    deleteComment: controllableActor<Answer, { commentId: number }>(),
  };
  const moments = momentFakes();
  const rendered = renderSharedPortfolios({
    path: '/shared-portfolios/9/artifacts/70',
    user: accounts.tess,
    api,
    fakes: {
      discussion: {
        getSharedArtifact: fromPromise(async ({ input }: { input: { artifactId: number } }) => {
          loads.push(input.artifactId);
          return DETAIL;
        }),
      },
      comment: {
        addComment: fakes.addComment.logic,
        editComment: fakes.editComment.logic,
        deleteComment: fakes.deleteComment.logic,
      },
    },
    inspect: { discussion: coverageInspector },
    moments: moments.moments,
  });
  return { ...rendered, api, fakes, moments, loads };
}

type Harness = ReturnType<typeof setup>;

/** Waits for an alert (a toast) with the message. */
async function expectAlert(message: string) {
  await waitFor(() => expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes(message))).toBe(true));
}
let h: Harness;

/** The one call of a fake service under way (a cancelled one is dropped). */
function settle<T, I>(fake: { calls: { input: I; deferred: Deferred<T> }[] }): { input: I; deferred: Deferred<T> } {
  const call = fake.calls.at(-1);
  if (!call) throw new Error('The page made no request to settle');
  fake.calls.length = 0;
  return call;
}

/** The comment count in the artifact's row of the table. */
const countInTable = () =>
  within(screen.getByRole('row', { name: /Ramp race/ }))
    .getAllByRole('gridcell')
    .at(-1)?.textContent;

const thread = () =>
  within(within(screen.getByRole('region', { name: 'Artifact details' })).getByRole('region', { name: 'Comments' }));
const composerBox = () => thread().getByPlaceholderText('Write a comment...') as HTMLTextAreaElement;
const postButton = () => thread().getByRole('button', { name: 'Post Comment' }) as HTMLButtonElement;
const articles = () => thread().queryAllByRole('article');
/** Tess's first comment: second in every list where it is. */
const mine = () => articles()[1]!;

/** The comments on screen, as the context holds them. */
async function expectComments(s: Snapshot) {
  await waitFor(() =>
    expect(
      articles().map((a) => [
        within(a).getByText(/\S/, { selector: 'strong' }).textContent,
        within(a).getByRole('time').textContent,
        a.querySelector('[data-edited]') !== null,
      ]),
    ).toEqual(s.context.comments.map((c) => [c.username, formatRelative(c.created_at), isEdited(c)])),
  );
  // Edit and Delete only on Tess's own.
  for (const a of articles()) {
    const own = a.getAttribute('aria-label') === 'Comment by Tess Teacher';
    const editing = within(a).queryByRole('textbox', { name: 'Edit comment' }) !== null;
    expect(within(a).queryByRole('button', { name: 'Edit comment' }) !== null).toBe(own && !editing);
  }
}

const checks = {
  'composer.idle': async (s: Snapshot) => {
    await expectComments(s);
    expect(composerBox().value).toBe(s.context.draft);
    expect(composerBox().readOnly).toBe(false);
    expect(postButton().disabled).toBe(true);
    expect(thread().getByText(`${s.context.draft.length}/2500 characters used`)).toBeTruthy();
  },
  'composer.drafting': async (s: Snapshot) => {
    await expectComments(s);
    await waitFor(() => expect(composerBox().value).toBe(s.context.draft));
    expect(postButton().disabled).toBe(false);
    expect(thread().getByText(`${s.context.draft.length}/2500 characters used`)).toBeTruthy();
  },
  'composer.posting': () => {
    expect(postButton().getAttribute('aria-busy')).toBe('true');
    expect(composerBox().readOnly).toBe(true);
    expect(h.fakes.addComment.calls.map((c) => c.input)).toEqual([{ artifactId: 70, text: DRAFTS.text }]);
  },
  'editor.viewing': async (s: Snapshot) => {
    await expectComments(s);
    expect(thread().queryByRole('textbox', { name: 'Edit comment' })).toBeNull();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    // The artifact was loaded once: the answers are patched in, and the table counts them (decision 033).
    expect(h.loads).toEqual([70]);
    expect(h.api.calls.filter((c) => c.startsWith('getPortfolio'))).toEqual(['getPortfolio 9']);
    await waitFor(() => expect(countInTable()).toBe(String(s.context.comments.length)));
  },
  'editor.editing': async (s: Snapshot) => {
    const box = (await within(mine()).findByRole('textbox', { name: 'Edit comment' })) as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe(s.context.editing!.text));
    expect(box.readOnly).toBe(false);
    expect((within(mine()).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  },
  'editor.saving': () => {
    expect(within(mine()).getByRole('button', { name: 'Save' }).getAttribute('aria-busy')).toBe('true');
    expect(h.fakes.editComment.calls.map((c) => c.input)).toEqual([{ commentId: MINE.id, text: EDIT_TEXT }]);
  },
  'editor.confirmingDelete': () => {
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Comment' });
    expect(dialog.textContent).toContain('Are you sure you want to delete this comment?');
    expect((within(dialog).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(false);
  },
  'editor.deleting': () => {
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Comment' });
    expect((within(dialog).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(true);
    expect(h.fakes.deleteComment.calls.map((c) => c.input)).toEqual([{ commentId: MINE.id }]);
  },
};

describe('comment model (the comments of a shared artifact on Shared Portfolios)', () => {
  const model = createPathModel(commentMachine, {
    input: { artifactId: 70, viewerId: accounts.tess.id, mutable: true, comments: DETAIL.comments },
    events,
  });
  const paths = model.getShortestPaths();
  it('has a view check for every state and paths to all of them', () => {
    assertEveryStateChecked(commentMachine, checks);
    expect(paths.length).toBeGreaterThan(12);
  });
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      h = setup();
      await screen.findByRole('region', { name: 'Artifact details' });
      // The artifact is read whole with its discussion before it is drawn.
      await screen.findByRole('region', { name: 'Comments' });
      await thread().findByPlaceholderText('Write a comment...');
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'comments.update': async () => {
            await commentAtMoment(h.ux, h.moments, AT_MOMENT.text, MOMENT_ANSWER);
          },
          'comment.draftChange': async (step) => {
            const { text } = step.event as Extract<CommentEvent, { type: 'comment.draftChange' }>;
            const box = composerBox();
            if (text === '') await h.ux.clear(box);
            else if (text.startsWith(box.value) && box.value !== '') await h.ux.type(box, text.slice(box.value.length));
            else await h.ux.type(box, text);
          },
          'comment.submit': async () => {
            await h.ux.click(postButton());
          },
          'xstate.done.actor.addComment': async () => {
            await act(async () => settle(h.fakes.addComment).deferred.resolve(ANSWERS.add));
          },
          'xstate.error.actor.addComment': async () => {
            await act(async () => settle(h.fakes.addComment).deferred.reject(refused));
            await expectAlert(refused.message);
          },
          'comment.edit': async () => {
            await h.ux.click(within(mine()).getByRole('button', { name: 'Edit comment' }));
          },
          'comment.editChange': async () => {
            const box = within(mine()).getByRole('textbox', { name: 'Edit comment' });
            await h.ux.clear(box);
            await h.ux.type(box, EDIT_TEXT);
          },
          'comment.save': async () => {
            await h.ux.click(within(mine()).getByRole('button', { name: 'Save' }));
          },
          'comment.cancelEdit': async () => {
            await h.ux.click(within(mine()).getByRole('button', { name: 'Cancel' }));
          },
          'xstate.done.actor.editComment': async () => {
            await act(async () => settle(h.fakes.editComment).deferred.resolve(ANSWERS.edit));
          },
          'xstate.error.actor.editComment': async () => {
            await act(async () => settle(h.fakes.editComment).deferred.reject(offline));
            await expectAlert(offline.message);
          },
          'comment.delete': async () => {
            await h.ux.click(within(mine()).getByRole('button', { name: 'Delete comment' }));
          },
          'comment.confirmDelete': async () => {
            await h.ux.click(
              within(screen.getByRole('alertdialog', { name: 'Delete Comment' })).getByRole('button', { name: 'YES' }),
            );
          },
          'comment.cancelDelete': async () => {
            await h.ux.click(
              within(screen.getByRole('alertdialog', { name: 'Delete Comment' })).getByRole('button', { name: 'NO' }),
            );
          },
          'xstate.done.actor.deleteComment': async () => {
            await act(async () => settle(h.fakes.deleteComment).deferred.resolve(ANSWERS.remove));
            expect(await screen.findByText('Successfully deleted comment')).toBeTruthy();
          },
          'xstate.error.actor.deleteComment': async () => {
            await act(async () => settle(h.fakes.deleteComment).deferred.reject(offline));
            await expectAlert(offline.message);
          },
        },
      });
    });
  }
});
