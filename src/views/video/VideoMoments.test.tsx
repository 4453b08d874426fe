import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterMarks, describeMark, type MomentMark } from '../../machines/videoPlayer/markers.ts';
import type { CaptionTrack } from '../../schemas/moments.ts';
import { makeScore } from '../../test/scoringFixtures.ts';
import { makeComment, makeReaction } from '../../test/sharedArtifactFixtures.ts';
import { makeVideo, provideTestMoments, renderVideoMoments, stubMediaElements } from '../../test/videoHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import { readMomentLink, sharedMarks } from './SharedVideoMoments.tsx';
import { controllableActor } from '../../../tests/model/support/deferred.ts';
import { formatClock, formatMoment } from '../../schemas/formatting.ts';

const comment = (id: number, start: number, who = 'Ana Teacher'): MomentMark => ({
  kind: 'comment',
  id,
  start,
  end: null,
  who,
});

afterEach(() => clearToasts());

describe('moment times and markers', () => {
  it('write times as m:ss (h:mm:ss past an hour) and ranges with a dash', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(192.9)).toBe('3:12');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatMoment({ start: 192, end: 220 })).toBe('3:12–3:40');
    expect(describeMark({ kind: 'reaction', id: 1, start: 5, end: null, who: 'Ana', value: '⭐' })).toMatch(
      /reaction by Ana at 0:05$/,
    );
    expect(describeMark({ kind: 'note', id: 1, start: 5, end: null, who: 'You' })).toBe('Your note at 0:05');
  });

  it('cluster marks closer than 2 % of the video (at least a second) into one marker named after all of them', () => {
    const markers = clusterMarks([comment(3, 40.5), comment(1, 10), comment(2, 10.8), comment(4, 90)], 100);
    expect(markers.map((m) => [m.start, m.left, m.marks.map((x) => x.id), m.targetId])).toEqual([
      [10, 10, [1, 2], 1],
      [40.5, 40.5, [3], 3],
      [90, 90, [4], 4],
    ]);
    expect(markers[0]!.label).toBe(
      '2 moments from 0:10: Comment by Ana Teacher at 0:10; Comment by Ana Teacher at 0:10',
    );
    // A lone reaction highlights no comment.
    expect(
      clusterMarks([{ kind: 'reaction', id: 9, start: 1, end: null, who: 'Ana', value: '⭐' }], 10)[0]!.targetId,
    ).toBeNull();
  });

  it('are taken from the comments and reactions at moments of that video only', () => {
    const video = makeVideo();
    const marks = sharedMarks(
      video.id,
      [
        makeComment({ id: 1, moment: { media: video.id, start: 2, end: 4 } }),
        makeComment({ id: 2 }),
        makeComment({ id: 3, moment: { media: 999, start: 1, end: null } }),
      ],
      [makeReaction({ id: 5, moment: { media: video.id, start: 6, end: null } }), makeReaction({ id: 6 })],
    );
    expect(marks.map((m) => [m.kind, m.id, m.start, m.end])).toEqual([
      ['comment', 1, 2, 4],
      ['reaction', 5, 6, null],
    ]);
  });

  it('include the rubric scores at moments of that video, named by level, criterion and scorer, never a comment’s target', () => {
    const video = makeVideo();
    const scores = [makeScore(7, video.id, 12), makeScore(8, null), makeScore(9, 999, 1)];
    const marks = sharedMarks(video.id, [], [], scores);
    expect(marks.map((m) => [m.kind, m.id, m.start])).toEqual([['score', 7, 12]]);
    expect(describeMark(marks[0]!)).toBe('Score High on Student talk by Lee Lead at 0:12');
    const [marker] = clusterMarks([...marks, comment(3, 12.2)], 100);
    expect(marker!.targetId).toBe(3);
    expect(clusterMarks(marks, 100)[0]!.targetId).toBeNull();
  });

  it('read the address’s video, time and comment, refusing anything else', () => {
    expect(readMomentLink('?media=61&t=12.5', '#comment-31')).toEqual({ media: 61, time: 12.5, comment: 31 });
    expect(readMomentLink('?media=x&t=-3', '#comment-x')).toEqual({ media: null, time: null, comment: null });
    expect(readMomentLink('', '')).toEqual({ media: null, time: null, comment: null });
  });
});

describe('the player with its timeline', () => {
  it('lists dense markers as one button, announces the count, and a marker seeks the video', async () => {
    stubMediaElements(100);
    const listCaptions = controllableActor<CaptionTrack[], { mediaId: number }>();
    const moments = provideTestMoments({ player: { listCaptions: listCaptions.logic } });
    const { ux } = renderVideoMoments({
      moments,
      video: makeVideo({ duration: 100 }),
      marks: [comment(1, 10), comment(2, 10.5), comment(3, 50)],
    });
    const list = screen.getByRole('list', { name: /^Moments in / });
    const buttons = within(list).getAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      '2 moments from 0:10: Comment by Ana Teacher at 0:10; Comment by Ana Teacher at 0:10',
      'Comment by Ana Teacher at 0:50',
    ]);
    expect(buttons[0]!.textContent).toBe('2');
    expect(screen.getByText('3 moments on the timeline.').getAttribute('role')).toBe('status');
    // Keyboard: Tab reaches the markers in time order; Enter seeks.
    buttons[1]!.focus();
    await ux.keyboard('{Enter}');
    expect(document.querySelector('video')!.currentTime).toBe(50);
    await act(async () => listCaptions.next().deferred.resolve([]));
  });

  it('starts at the address’s time, and offers no "Comment at" to who may not comment', async () => {
    stubMediaElements(12);
    const listCaptions = controllableActor<CaptionTrack[], { mediaId: number }>();
    const moments = provideTestMoments({ player: { listCaptions: listCaptions.logic } });
    renderVideoMoments({ moments, startAt: 7, canComment: false, canCaption: false });
    expect(document.querySelector('video')!.currentTime).toBe(7);
    expect(screen.queryByRole('button', { name: /^Comment at/ })).toBeNull();
    expect(screen.getByText('No moments on the timeline yet.')).toBeTruthy();
    await act(async () => listCaptions.next().deferred.resolve([]));
    expect(screen.queryByRole('form', { name: /^Upload captions/ })).toBeNull();
  });
});
