import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  momentCommentMachine,
  type MomentCommentEvent,
  type MomentPost,
} from '../../src/machines/momentComment/momentCommentMachine.ts';
import { REACTIONS } from '../../src/schemas/catalog.ts';
import type { MomentBody } from '../../src/schemas/moments.ts';
import type { Comment } from '../../src/schemas/sharedArtifact.ts';
import { ApiError } from '../../src/services/errors.ts';
import { makeComment } from '../../src/test/sharedArtifactFixtures.ts';
import { makeVideo, provideTestMoments, renderVideoMoments, stubMediaElements } from '../../src/test/videoHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import {
  MomentTime,
  ThreadControls,
  useIsHighlighted,
  useVisibleComments,
} from '../../src/views/video/MomentThread.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, isInvoking } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, modelEvent, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';
import { formatMoment } from '../../src/schemas/formatting.ts';

trackCoverage(momentCommentMachine);

type Snapshot = SnapshotFrom<typeof momentCommentMachine>;

const VIDEO = makeVideo();
const AT = 5;
const END = 8;
const TEXT = 'The car passes the mark.';
const STAR = REACTIONS[0]!;
const refused = new ApiError(400, 'invalid_moment', 'The moment is past the end of the video (0:12).', '');
/** The thread: a comment on the whole artifact (posted first) and one at 3 s of the video (posted second). */
const WHOLE = makeComment({ id: 30, text: 'On the whole artifact.' });
const AT_THREE = makeComment({ id: 31, text: 'At three seconds.', moment: { media: VIDEO.id, start: 3, end: null } });
const COMMENTS: readonly Comment[] = [WHOLE, AT_THREE];

const ev = modelEvent<MomentCommentEvent>();

/**
 * The model's events. To keep the paths few while taking every transition: the thread's filter,
 * order and highlight are changed once each from the untouched start; the composer is opened at
 * 5 s; a range, a text or a reaction is chosen from the fresh composer, and Cancel ends a refused one.
 */
function events(snapshot: unknown): MomentCommentEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: MomentCommentEvent[] = [];
  const pristine = c.filter.kind === 'all' && c.sort === 'posted' && c.highlighted === null;
  if (s.matches('idle') && pristine) {
    list.push(
      { type: 'moment.start', media: VIDEO.id, time: AT },
      { type: 'thread.filter', filter: { kind: 'moments' } },
      { type: 'thread.sort', sort: 'time' },
      { type: 'thread.highlight', commentId: AT_THREE.id },
    );
  }
  if (s.matches('composing')) {
    const fresh = c.text === '' && c.anchor?.end === null && c.error === null;
    if (fresh)
      list.push(
        { type: 'draft.change', text: TEXT },
        { type: 'moment.setEnd', time: END },
        { type: 'moment.react', value: STAR.value },
        { type: 'moment.cancel' },
      );
    if (c.anchor?.end !== null && c.text === '')
      list.push({ type: 'moment.clearEnd' }, { type: 'draft.change', text: TEXT });
    if (c.text !== '' && c.error === null) list.push({ type: 'moment.submit' });
    if (c.error !== null) list.push({ type: 'moment.cancel' });
  }
  if (isInvoking(s, 'postMoment'))
    list.push(
      ev('xstate.done.actor.postMoment', { output: {} }),
      ev('xstate.error.actor.postMoment', { error: refused }),
    );
  if (isInvoking(s, 'reactAtMoment'))
    list.push(
      ev('xstate.done.actor.reactAtMoment', { output: {} }),
      ev('xstate.error.actor.reactAtMoment', { error: refused }),
    );
  return list.filter((event) => s.can(event));
}

/** The comment thread as CommentThread shows it: its filter and order, each comment with its time and highlight. */
function Thread() {
  const shown = useVisibleComments(COMMENTS);
  return (
    <section aria-label="Comments">
      <ThreadControls />
      <ul aria-label="Thread">
        {shown.map((c) => (
          <ThreadItem key={c.id} comment={c} />
        ))}
      </ul>
    </section>
  );
}

function ThreadItem({ comment }: { comment: Comment }) {
  const highlighted = useIsHighlighted(comment.id);
  return (
    <li aria-current={highlighted || undefined}>
      {comment.text} <MomentTime comment={comment} />
    </li>
  );
}

function setup() {
  const media = stubMediaElements(12);
  const fakes = {
    postMoment: controllableActor<unknown, MomentPost>(),
    reactAtMoment: controllableActor<unknown, { artifactId: number; value: string; moment: MomentBody }>(),
  };
  const moments = provideTestMoments(
    { composer: { postMoment: fakes.postMoment.logic, reactAtMoment: fakes.reactAtMoment.logic } },
    coverageInspector,
  );
  const rendered = renderVideoMoments({ moments, video: VIDEO, after: <Thread /> });
  return { ...rendered, fakes, media };
}

let h: ReturnType<typeof setup>;

const video = () => document.querySelector('video')!;
const playTo = (time: number) =>
  act(() => {
    video().currentTime = time;
    fireEvent.timeUpdate(video());
  });
const thread = () => screen.getByRole('list', { name: 'Thread' });
const composerForm = (s: Snapshot) =>
  screen.getByRole('form', { name: `Comment at ${formatMoment(s.context.anchor!)}` });

const checks = {
  idle: async (s: Snapshot) => {
    expect(screen.queryByRole('form', { name: /^Comment at/ })).toBeNull();
    expect(screen.getByRole('button', { name: /^Comment at \d{1,2}:\d\d$/ })).toBeTruthy();
    const items = within(thread()).getAllByRole('listitem');
    const expected =
      s.context.filter.kind === 'moments'
        ? [AT_THREE]
        : s.context.sort === 'time'
          ? [AT_THREE, WHOLE]
          : [WHOLE, AT_THREE];
    expect(items.map((li) => li.textContent?.split('▶')[0]?.trim())).toEqual(expected.map((c) => c.text));
    expect((screen.getByRole('combobox', { name: 'Show' }) as HTMLSelectElement).value).toBe(s.context.filter.kind);
    expect((screen.getByRole('combobox', { name: 'Order' }) as HTMLSelectElement).value).toBe(s.context.sort);
    const current = items
      .filter((li) => li.getAttribute('aria-current') === 'true')
      .map((li) => li.textContent?.split('▶')[0]?.trim());
    expect(current).toEqual(s.context.highlighted === null ? [] : [AT_THREE.text]);
    if (s.context.highlighted !== null) expect(video().currentTime).toBe(3);
  },
  composing: async (s: Snapshot) => {
    const form = composerForm(s);
    expect((within(form).getByRole('textbox') as HTMLTextAreaElement).value).toBe(s.context.text);
    if (s.context.anchor!.end === null) expect(within(form).getByRole('button', { name: /^Set end at/ })).toBeTruthy();
    else expect(within(form).getByRole('button', { name: 'Clear end' })).toBeTruthy();
    expect((within(form).getByRole('button', { name: 'Post Comment' }) as HTMLButtonElement).disabled).toBe(
      s.context.text.trim() === '',
    );
    if (s.context.error) expect(within(form).getByRole('alert').textContent).toBe(refused.message);
    else expect(within(form).queryByRole('alert')).toBeNull();
    expect(form.getAttribute('aria-busy')).toBeNull();
    // "Comment at" paused the video.
    expect(h.media.pause).toHaveBeenCalled();
  },
  posting: async (s: Snapshot) => {
    expect(composerForm(s).getAttribute('aria-busy')).toBe('true');
    expect(h.fakes.postMoment.calls.at(-1)!.input).toEqual({
      target: 'comment',
      artifactId: 70,
      moment: s.context.anchor,
      text: TEXT,
    });
  },
  reacting: async (s: Snapshot) => {
    expect(composerForm(s).getAttribute('aria-busy')).toBe('true');
    expect(h.fakes.reactAtMoment.calls.at(-1)!.input).toEqual({
      artifactId: 70,
      value: STAR.value,
      moment: { media: VIDEO.id, start: AT, end: null },
    });
  },
};

beforeEach(() => clearToasts());
afterEach(() => clearToasts());

describe('momentComment model (a comment or reaction at a moment, and the thread’s view)', () => {
  const paths = checkedShortestPaths(
    momentCommentMachine,
    { input: { artifactId: 70, target: 'comment', highlight: null }, events },
    checks,
    8,
  );
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      h = setup();
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'moment.start': async () => {
            await act(async () => video().play());
            playTo(AT);
            await h.ux.click(screen.getByRole('button', { name: 'Comment at 0:05' }));
          },
          'moment.setEnd': async () => {
            playTo(END);
            await h.ux.click(screen.getByRole('button', { name: 'Set end at 0:08' }));
          },
          'moment.clearEnd': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Clear end' }));
          },
          'draft.change': async () => {
            await h.ux.type(screen.getByRole('textbox', { name: 'Comment text' }), TEXT);
          },
          'moment.submit': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Post Comment' }));
          },
          'moment.react': async () => {
            await h.ux.click(screen.getByRole('button', { name: `${STAR.meaning} at 0:05` }));
          },
          'moment.cancel': async () => {
            await h.ux.keyboard('{Escape}');
          },
          'thread.filter': async () => {
            await h.ux.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'moments');
          },
          'thread.sort': async () => {
            await h.ux.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'time');
          },
          'thread.highlight': async () => {
            await h.ux.click(within(thread()).getByRole('button', { name: 'Play from 0:03' }));
          },
          'xstate.done.actor.postMoment': async () => {
            const anchor = h.fakes.postMoment.calls.at(-1)!.input.moment;
            await act(async () => h.fakes.postMoment.next().deferred.resolve({}));
            expect(await screen.findByText(`Comment added at ${formatMoment(anchor)}`)).toBeTruthy();
          },
          'xstate.error.actor.postMoment': async () => {
            await act(async () => h.fakes.postMoment.next().deferred.reject(refused));
          },
          'xstate.done.actor.reactAtMoment': async () => {
            await act(async () => h.fakes.reactAtMoment.next().deferred.resolve({}));
            expect(await screen.findByText('Reaction placed at 0:05')).toBeTruthy();
          },
          'xstate.error.actor.reactAtMoment': async () => {
            await act(async () => h.fakes.reactAtMoment.next().deferred.reject(refused));
          },
        },
      });
    });
  }
});
