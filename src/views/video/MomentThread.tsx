import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import { useSelector } from '../../machines/shared/actorReact.ts';
import styled from 'styled-components';
import { videoLabel } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import type { ThreadFilter, ThreadSort } from '../../machines/momentComment/momentCommentMachine.ts';
import {
  useMomentCommentEvents,
  useThreadView,
  viewComments,
  type MomentCommentRef,
} from '../../machines/momentComment/useMomentComment.ts';
import type { Media } from '../../schemas/media.ts';
import type { Comment } from '../../schemas/sharedArtifact.ts';
import { Button } from '../components/Button.tsx';
import { selectStyle } from '../components/cardStyles.ts';
import { formatMoment } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';

/** A player that comments may seek: its element (to bring it into view) and its seek intent. */
export interface SeekablePlayer {
  element: () => HTMLElement | null;
  seek: (time: number) => void;
}

/** What the comment thread of an artifact with videos reads: the composer, its videos and their players. */
export interface MomentThreadValue {
  composer: MomentCommentRef;
  videos: readonly Media[];
  /** Registers the player of a video; returns its unregistration. */
  register: (media: number, player: SeekablePlayer) => () => void;
  /** Seeks a video's player to a time and brings it into view. */
  seekTo: (media: number, time: number) => void;
}

const MomentThreadContext = createContext<MomentThreadValue | null>(null);

/** Gives the players and the comment thread of one artifact their shared moment state. */
export function MomentThreadProvider({
  composer,
  videos,
  children,
}: {
  composer: MomentCommentRef;
  videos: readonly Media[];
  children: ReactNode;
}) {
  const players = useRef(new Map<number, SeekablePlayer>());
  const register = useCallback((media: number, player: SeekablePlayer) => {
    players.current.set(media, player);
    return () => {
      if (players.current.get(media) === player) players.current.delete(media);
    };
  }, []);
  const seekTo = useCallback((media: number, time: number) => {
    const player = players.current.get(media);
    if (!player) return;
    player.seek(time);
    player.element()?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  const value = useMemo(() => ({ composer, videos, register, seekTo }), [composer, videos, register, seekTo]);
  return <MomentThreadContext.Provider value={value}>{children}</MomentThreadContext.Provider>;
}

/** The moment state of the artifact (`null` where the artifact has no video moments). */
export const useMomentThread = (): MomentThreadValue | null => useContext(MomentThreadContext);

/** The comments as the thread's filter and order show them (all of them, as posted, where the artifact has no videos). */
export function useVisibleComments(comments: readonly Comment[]): readonly Comment[] {
  const composer = useMomentThread()?.composer;
  const filter = useSelector(composer, (s) => s?.context.filter ?? null);
  const sort = useSelector(composer, (s) => s?.context.sort ?? 'posted');
  return useMemo(() => (filter ? viewComments(comments, filter, sort) : comments), [comments, filter, sort]);
}

const Controls = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm} ${theme.space.md};
  align-items: end;
  label {
    display: flex;
    flex-direction: column;
    gap: ${theme.space.xxs};
    font-size: ${theme.font.size.sm};
    font-weight: ${theme.font.weight.medium};
  }
  select {
    ${selectStyle}
  }
`;

const filterValue = (filter: ThreadFilter): string => (filter.kind === 'video' ? `video-${filter.media}` : filter.kind);
const toFilter = (value: string): ThreadFilter => {
  if (value.startsWith('video-')) return { kind: 'video', media: Number(value.slice('video-'.length)) };
  return value === 'moments' ? { kind: 'moments' } : { kind: 'all' };
};

/** The thread's filter (all / one video / at moments) and order (as posted / by time); only where the artifact has videos. */
function ThreadControlsOf({ moments }: { moments: MomentThreadValue }) {
  const { filter, sort } = useThreadView(moments.composer);
  const events = useMomentCommentEvents(moments.composer);
  const filterId = useId();
  const sortId = useId();
  return (
    <Controls>
      <label htmlFor={filterId}>
        Show
        <select id={filterId} value={filterValue(filter)} onChange={(e) => events.filter(toFilter(e.target.value))}>
          <option value="all">All comments</option>
          <option value="moments">Comments at moments</option>
          {moments.videos.map((v) => (
            <option key={v.id} value={`video-${v.id}`}>
              {moments.videos.length === 1 ? 'This video' : videoLabel(v, moments.videos)}
            </option>
          ))}
        </select>
      </label>
      <label htmlFor={sortId}>
        Order
        <select id={sortId} value={sort} onChange={(e) => events.sort(e.target.value as ThreadSort)}>
          <option value="posted">As posted</option>
          <option value="time">By time in the video</option>
        </select>
      </label>
    </Controls>
  );
}

/** The filter and order of the comment thread (nothing where the artifact has no videos). */
export function ThreadControls() {
  const moments = useMomentThread();
  if (!moments || moments.videos.length === 0) return null;
  return <ThreadControlsOf moments={moments} />;
}

const TimeButton = styled(Button)`
  font-variant-numeric: tabular-nums;
`;

/** The time of a comment at a moment: a button that plays the video from there. */
export function MomentTime({ comment }: { comment: Comment }) {
  const moments = useMomentThread();
  if (!moments || comment.moment === null) return null;
  const { moment } = comment;
  const video = moments.videos.find((v) => v.id === moment.media);
  const where = video && moments.videos.length > 1 ? ` in ${videoLabel(video, moments.videos)}` : '';
  return (
    <TimeButton
      type="button"
      $variant="link"
      aria-label={`Play from ${formatMoment(moment)}${where}`}
      onClick={() => {
        moments.seekTo(moment.media, moment.start);
        moments.composer.send({ type: 'thread.highlight', commentId: comment.id });
      }}
    >
      <span aria-hidden="true">▶ </span>
      {formatMoment(moment)}
      {where}
    </TimeButton>
  );
}

/** Whether the comment is the highlighted one (a marker's, a comment time's or the address's). */
export function useIsHighlighted(commentId: number): boolean {
  const composer = useMomentThread()?.composer;
  return useSelector(composer, (s) => s?.context.highlighted === commentId);
}

/** Brings the comment the address names (`#comment-<id>`) into view once it is on screen. */
export function useScrollToHashedComment(ready: boolean): void {
  const done = useRef(false);
  useEffect(() => {
    if (!ready || done.current) return;
    const match = /^#comment-(\d+)$/.exec(window.location.hash);
    if (!match) return;
    const element = document.getElementById(`comment-${match[1]}`);
    if (!element) return;
    done.current = true;
    // A comment at a moment: the player, at that moment, comes into view (the comment is highlighted beside or below it).
    const media = /[?&]media=(\d+)/.exec(window.location.search)?.[1];
    const player = media ? document.getElementById(`video-${media}`) : null;
    (player ?? element).scrollIntoView?.({ block: player ? 'start' : 'center' });
  }, [ready]);
}
