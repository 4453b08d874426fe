import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock, type SnapshotFrom } from 'xstate';
import { commentMachine, type CommentEvent } from '../../src/machines/comment/commentMachine.ts';
import type { SharedArtifactDetail } from '../../src/schemas/sharedArtifact.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { signOut } from '../../src/services/session.ts';
import { formatRelative } from '../../src/schemas/formatting.ts';
import { isEdited } from '../../src/views/shared/discussion/CommentText.tsx';
import {
  accounts,
  FakeSharedApi,
  makeSharedArtifact,
  makeSharedPortfolio,
  people,
  renderSharedPortfolios,
} from '../../src/test/sharedHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { ANSWERS, DETAIL, MINE, type Answer } from './support/commentFixtures.ts';
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
const REFETCH_MS = 1000;
const TIMER = 'xstate.after.refetchDelay.comment.ready.sync.scheduled';

const DRAFTS = { blank: '   ', text: 'Nice idea', more: 'Nice idea!' };
const EDIT_TEXT = 'We tried ball bearings.';

const ev = (type: string, payload: Record<string, unknown> = {}) => ({ type, ...payload }) as unknown as CommentEvent;

/**
 * The model's events in a state. To keep the paths few while taking every transition: the
 * composer acts while no comment is edited; a comment is edited or deleted while the composer is
 * empty; timers and fetches settle while both are at rest; and one post while the comments are
 * being fetched again shows that a change then schedules another fetch.
 */
function events(snapshot: unknown): CommentEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: CommentEvent[] = [];
  if (s.matches('loading')) {
    list.push(
      ev('xstate.done.actor.getSharedArtifact', { output: DETAIL }),
      ev('xstate.error.actor.getSharedArtifact', { error: offline }),
    );
  }
  if (s.matches('loadFailed')) list.push({ type: 'retry' });
  if (!s.matches('ready')) return list;
  const composerIdle = s.matches({ ready: { composer: 'idle' } });
  const viewing = s.matches({ ready: { editor: 'viewing' } });
  const syncIdle = s.matches({ ready: { sync: 'upToDate' } });
  const refetching = s.matches({ ready: { sync: 'refetching' } });
  if (viewing && (syncIdle || refetching)) {
    if (composerIdle && c.draft === '') list.push({ type: 'comment.draftChange', text: DRAFTS.text });
    if (syncIdle) {
      if (composerIdle && c.draft === '') list.push({ type: 'comment.draftChange', text: DRAFTS.blank });
      if (s.matches({ ready: { composer: 'drafting' } }) && c.draft === DRAFTS.text) {
        list.push({ type: 'comment.draftChange', text: '' }, { type: 'comment.draftChange', text: DRAFTS.more });
      }
    }
    if (c.draft === DRAFTS.text) list.push({ type: 'comment.submit' });
  }
  if (s.matches({ ready: { composer: 'posting' } })) {
    list.push(ev('xstate.done.actor.addComment', { output: ANSWERS.add }));
    if (syncIdle) list.push(ev('xstate.error.actor.addComment', { error: refused }));
  }
  if (composerIdle && c.draft === '' && syncIdle) {
    const mineThere = c.comments.some((x) => x.id === MINE.id && x.text === MINE.text);
    if (viewing && mineThere)
      list.push({ type: 'comment.edit', commentId: MINE.id }, { type: 'comment.delete', commentId: MINE.id });
    if (s.matches({ ready: { editor: 'editing' } })) {
      if (c.editing?.text === MINE.text)
        list.push({ type: 'comment.editChange', text: EDIT_TEXT }, { type: 'comment.cancelEdit' });
      if (c.editing?.text === EDIT_TEXT) list.push({ type: 'comment.save' });
    }
    if (s.matches({ ready: { editor: 'saving' } })) {
      list.push(
        ev('xstate.done.actor.editComment', { output: ANSWERS.edit }),
        ev('xstate.error.actor.editComment', { error: offline }),
      );
    }
    if (s.matches({ ready: { editor: 'confirmingDelete' } }))
      list.push({ type: 'comment.confirmDelete' }, { type: 'comment.cancelDelete' });
    if (s.matches({ ready: { editor: 'deleting' } })) {
      list.push(
        ev('xstate.done.actor.deleteComment', { output: ANSWERS.remove }),
        ev('xstate.error.actor.deleteComment', { error: offline }),
      );
    }
  }
  if (composerIdle && c.draft === '' && viewing) {
    if (s.matches({ ready: { sync: 'scheduled' } })) list.push(ev(TIMER));
    if (refetching)
      list.push(
        ev('xstate.done.actor.getSharedArtifact', { output: DETAIL }),
        ev('xstate.error.actor.getSharedArtifact', { error: offline }),
      );
  }
  return list.filter((event) => s.can(event) || (event.type as string) === TIMER);
}

/** A readable test name: where the path ends and the steps on the way. */
function pathName(path: { state: unknown; steps: readonly { event: unknown }[] }): string {
  const steps = path.steps
    .map((step) => step.event as { type: string; text?: string; error?: Error })
    .filter((e) => e.type !== 'xstate.init')
    .map((e) => {
      const type = e.type
        .replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) => (kind === 'done' ? '✓ ' : '✗ '))
        .replace(/^xstate\.after\..*$/, '1 s later');
      return e.text !== undefined ? `${type} ${JSON.stringify(e.text)}` : type;
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
    addComment: controllableActor<Answer, { artifactId: number; text: string }>(),
    editComment: controllableActor<Answer, { commentId: number; text: string }>(),
    deleteComment: controllableActor<Answer, { commentId: number }>(),
  };
  const clock = new SimulatedClock();
  const rendered = renderSharedPortfolios({
    path: '/shared-portfolios/9/artifacts/70',
    user: accounts.tess,
    api,
    fakes: {
      comment: {
        getSharedArtifact: fakes.getSharedArtifact.logic,
        addComment: fakes.addComment.logic,
        editComment: fakes.editComment.logic,
        deleteComment: fakes.deleteComment.logic,
      },
    },
    inspect: { comment: coverageInspector },
    delays: { refetchDelay: REFETCH_MS },
    discussionClock: clock,
  });
  return { ...rendered, fakes, clock };
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
  loading: () => {
    expect(thread().getByText('Loading comments…')).toBeTruthy();
    expect(h.fakes.getSharedArtifact.calls.map((c) => c.input)).toEqual([{ artifactId: 70 }]);
  },
  loadFailed: async () => {
    expect(await thread().findByText(/The comments could not be loaded\./)).toBeTruthy();
    expect(thread().queryByPlaceholderText('Write a comment...')).toBeNull();
  },
  'ready.composer.idle': async (s: Snapshot) => {
    await expectComments(s);
    expect(composerBox().value).toBe(s.context.draft);
    expect(composerBox().readOnly).toBe(false);
    expect(postButton().disabled).toBe(true);
    expect(thread().getByText(`${s.context.draft.length}/2500 characters used`)).toBeTruthy();
  },
  'ready.composer.drafting': async (s: Snapshot) => {
    await expectComments(s);
    await waitFor(() => expect(composerBox().value).toBe(s.context.draft));
    expect(postButton().disabled).toBe(false);
    expect(thread().getByText(`${s.context.draft.length}/2500 characters used`)).toBeTruthy();
  },
  'ready.composer.posting': () => {
    expect(postButton().getAttribute('aria-busy')).toBe('true');
    expect(composerBox().readOnly).toBe(true);
    expect(h.fakes.addComment.calls.map((c) => c.input)).toEqual([{ artifactId: 70, text: DRAFTS.text }]);
  },
  'ready.editor.viewing': async (s: Snapshot) => {
    await expectComments(s);
    expect(thread().queryByRole('textbox', { name: 'Edit comment' })).toBeNull();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  },
  'ready.editor.editing': async (s: Snapshot) => {
    const box = (await within(mine()).findByRole('textbox', { name: 'Edit comment' })) as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe(s.context.editing!.text));
    expect(box.readOnly).toBe(false);
    expect((within(mine()).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  },
  'ready.editor.saving': () => {
    expect(within(mine()).getByRole('button', { name: 'Save' }).getAttribute('aria-busy')).toBe('true');
    expect(h.fakes.editComment.calls.map((c) => c.input)).toEqual([{ commentId: MINE.id, text: EDIT_TEXT }]);
  },
  'ready.editor.confirmingDelete': () => {
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Comment' });
    expect(dialog.textContent).toContain('Are you sure you want to delete this comment?');
    expect((within(dialog).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(false);
  },
  'ready.editor.deleting': () => {
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Comment' });
    expect((within(dialog).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(true);
    expect(h.fakes.deleteComment.calls.map((c) => c.input)).toEqual([{ commentId: MINE.id }]);
  },
  'ready.sync.upToDate': async () => {
    await waitFor(() =>
      expect(thread().getByRole('heading', { name: 'Comments' }).parentElement!.getAttribute('aria-busy')).toBeNull(),
    );
    expect(h.fakes.getSharedArtifact.calls).toHaveLength(0);
  },
  'ready.sync.scheduled': async () => {
    await waitFor(() =>
      expect(thread().getByRole('heading', { name: 'Comments' }).parentElement!.getAttribute('aria-busy')).toBe('true'),
    );
    expect(h.fakes.getSharedArtifact.calls).toHaveLength(0);
  },
  'ready.sync.refetching': async () => {
    await waitFor(() =>
      expect(thread().getByRole('heading', { name: 'Comments' }).parentElement!.getAttribute('aria-busy')).toBe('true'),
    );
    expect(h.fakes.getSharedArtifact.calls.map((c) => c.input)).toEqual([{ artifactId: 70 }]);
  },
};

describe('comment model (the comments of a shared artifact on Shared Portfolios)', () => {
  const model = createPathModel(commentMachine, {
    input: { artifactId: 70, viewerId: accounts.tess.id, mutable: true },
    events,
  });
  const paths = model.getShortestPaths();
  it('has a view check for every state and paths to all of them', () => {
    assertEveryStateChecked(commentMachine, checks);
    expect(paths.length).toBeGreaterThan(15);
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
            // A failed fetch after a change is alerted; a failed first load is shown in place.
            if (refetch) await expectAlert(offline.message);
          },
          retry: async () => {
            await h.ux.click(thread().getByRole('button', { name: 'Try again' }));
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
            // A fetch under way is dropped by the change (it is scheduled again).
            h.fakes.getSharedArtifact.calls.length = 0;
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
          [TIMER]: async () => {
            await act(async () => h.clock.increment(REFETCH_MS));
          },
        },
      });
    });
  }
});
