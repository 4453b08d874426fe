import { useCallback, useEffect, useId, useMemo, useRef, type ComponentType, type RefObject } from 'react';
import styled from 'styled-components';
import { fileSource, mediaLabel, posterSource } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import {
  useMomentCommentEvents,
  useMomentDraft,
  useMomentsSetup,
} from '../../machines/momentComment/useMomentComment.ts';
import { clusterMarks, type Marker, type MomentMark } from '../../machines/videoPlayer/markers.ts';
import {
  useCaptions,
  usePlayerCommand,
  usePlayerTime,
  usePlaying,
  useVideoPlayerActor,
  useVideoPlayerEvents,
  type VideoPlayerRef,
} from '../../machines/videoPlayer/useVideoPlayer.ts';
import type { MediaHolder } from '../../machines/videoPlayer/videoPlayerMachine.ts';
import type { Media } from '../../schemas/media.ts';
import { Button } from '../components/Button.tsx';
import { selectStyle } from '../components/cardStyles.ts';
import { CaptionsPanel } from './CaptionsPanel.tsx';
import { MomentComposer } from './MomentComposer.tsx';
import { useMomentThread } from './MomentThread.tsx';
import { formatClock } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';

/** What a browser without video support shows. */
export const VIDEO_FALLBACK = 'Your browser does not support the video tag.';

const Figure = styled.figure`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  margin: 0;
  figcaption {
    font-weight: ${theme.font.weight.medium};
    overflow-wrap: anywhere;
  }
`;

const Player = styled.video`
  display: block;
  width: 100%;
  max-height: 60vh;
  background: #000;
  border-radius: ${theme.radius.md};
`;

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm} ${theme.space.md};
  label {
    display: inline-flex;
    align-items: center;
    gap: ${theme.space.xs};
    font-size: ${theme.font.size.sm};
  }
  select {
    ${selectStyle}
  }
`;

const Timeline = styled.div`
  position: relative;
  padding: ${theme.space.xs} 14px;
`;

const Track = styled.div`
  position: absolute;
  left: 14px;
  right: 14px;
  top: 50%;
  height: 4px;
  margin-top: -2px;
  border-radius: 2px;
  background: ${theme.color.border};
`;

const Markers = styled.ol`
  position: relative;
  height: 28px;
  margin: 0;
  padding: 0;
  list-style: none;
`;

const MarkerItem = styled.li`
  position: absolute;
  top: 0;
  transform: translateX(-50%);
`;

/** A marker's colour by what it holds: comments and notes, reactions only, or scores only. */
const MARKER_COLOURS = { said: theme.color.primary, reaction: theme.color.accent, score: theme.color.warning } as const;

const MarkerButton = styled.button<{ $tone: keyof typeof MARKER_COLOURS }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-width: 24px;
  height: 28px;
  padding: 0 4px;
  border: 2px solid ${theme.color.surface};
  border-radius: ${theme.radius.pill};
  background: ${({ $tone }) => MARKER_COLOURS[$tone]};
  color: ${theme.color.primaryText};
  font: inherit;
  font-size: ${theme.font.size.xs};
  font-weight: ${theme.font.weight.bold};
  cursor: pointer;
  &:hover {
    background: ${theme.color.primaryHover};
  }
`;

const Muted = styled.p`
  margin: 0;
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

/** Applies the machine's commands (seek, pause) to the element; a seek before the metadata waits for it. */
function usePlayerElement(player: VideoPlayerRef) {
  const element = useRef<HTMLVideoElement>(null);
  const command = usePlayerCommand(player);
  const pendingSeek = useRef<number | null>(null);
  const done = useRef(0);
  useEffect(() => {
    const video = element.current;
    if (!video || !command || command.seq === done.current) return;
    done.current = command.seq;
    if (command.kind === 'pause') video.pause();
    else if (video.readyState >= 1) video.currentTime = command.time;
    else pendingSeek.current = command.time;
  }, [command]);
  const onLoadedMetadata = () => {
    const video = element.current;
    if (!video) return;
    if (pendingSeek.current !== null) {
      video.currentTime = pendingSeek.current;
      pendingSeek.current = null;
    }
  };
  return { element, onLoadedMetadata };
}

/** Shows the chosen caption track and hides the others (the element's own menu may change them too). */
function useShownTrack(
  element: RefObject<HTMLVideoElement | null>,
  trackIds: readonly number[],
  trackId: number | null,
) {
  useEffect(() => {
    if (element.current) showTrack(element.current, trackIds, trackId);
  }, [element, trackIds, trackId]);
}

/** Sets the modes of the element's text tracks: the chosen one showing, the others disabled. */
function showTrack(video: HTMLVideoElement, trackIds: readonly number[], trackId: number | null): void {
  const tracks = video.textTracks;
  if (!tracks) return;
  for (let i = 0; i < tracks.length; i += 1) tracks[i]!.mode = trackIds[i] === trackId ? 'showing' : 'disabled';
}

/** The timeline's markers as buttons, in time order; each seeks and highlights its comment. */
function MomentMarkers({
  markers,
  label,
  onActivate,
}: {
  markers: readonly Marker[];
  label: string;
  onActivate: (marker: Marker) => void;
}) {
  const count = markers.reduce((n, m) => n + m.marks.length, 0);
  return (
    <>
      <Timeline>
        <Track aria-hidden="true" />
        <Markers aria-label={`Moments in ${label}`}>
          {markers.map((m) => (
            <MarkerItem key={m.key} style={{ left: `${m.left}%` }}>
              <MarkerButton
                type="button"
                aria-label={m.label}
                title={m.label}
                $tone={
                  m.marks.every((x) => x.kind === 'reaction')
                    ? 'reaction'
                    : m.marks.every((x) => x.kind === 'score')
                      ? 'score'
                      : 'said'
                }
                onClick={() => onActivate(m)}
              >
                {m.marks.length > 1 ? (
                  m.marks.length
                ) : (
                  <span aria-hidden="true">{m.marks[0]!.kind === 'score' ? '★' : '•'}</span>
                )}
              </MarkerButton>
            </MarkerItem>
          ))}
        </Markers>
      </Timeline>
      <Muted role="status">
        {count === 0
          ? 'No moments on the timeline yet.'
          : `${count} ${count === 1 ? 'moment' : 'moments'} on the timeline.`}
      </Muted>
    </>
  );
}

export interface VideoMomentsProps {
  /** The video. */
  media: Media;
  /** The artifact holding it (its caption tracks are that artifact's own). */
  holder: MediaHolder;
  /** What was said at its moments. */
  marks: readonly MomentMark[];
  /** Where the address asks to start (seconds). */
  startAt: number | null;
  /** Whether the viewer may comment (or take notes) at moments. */
  canComment: boolean;
  /** Whether the viewer may add and edit caption tracks. */
  canCaption: boolean;
  /** 'Comment' on a shared artifact, 'Note' on one's own. */
  noun: 'Comment' | 'Note';
  /** More tools under the player (the rubric scoring), given the player's current time and a pause. */
  tools?: ComponentType<PlayerHandle>;
}

/** What tools under a player may use: its current time (seconds) and a pause that keeps the moment. */
export interface PlayerHandle {
  mediaId: number;
  /** The time shown (seconds), as the player last reported it. */
  time: number;
  now: () => number;
  capture: () => void;
}

/**
 * One video with its caption tracks (selectable, and the player's own menu), the timeline of
 * its moments (clustered when dense; each marker a button named like 'Comment by Ana at 3:12'),
 * "Comment at 3:12" (pauses the video and opens the composer), and its captions panel.
 */
export function VideoMoments({
  media,
  holder,
  marks,
  startAt,
  canComment,
  canCaption,
  noun,
  tools: Tools,
}: VideoMomentsProps) {
  const moments = useMomentThread();
  if (!moments) throw new Error('VideoMoments needs MomentThreadProvider above it.');
  const { composer } = moments;
  const { captionUrl } = useMomentsSetup();
  const player = useVideoPlayerActor({ mediaId: media.id, holder, duration: media.duration, startAt });
  const { time, duration } = usePlayerTime(player);
  const playing = usePlaying(player);
  const captions = useCaptions(player);
  const events = useVideoPlayerEvents(player);
  const draft = useMomentDraft(composer);
  const composerEvents = useMomentCommentEvents(composer);
  const { element, onLoadedMetadata } = usePlayerElement(player);
  const trackIds = useMemo(() => captions.tracks.map((t) => t.id), [captions.tracks]);
  useShownTrack(element, trackIds, captions.trackId);
  const label = mediaLabel(media);
  const captionId = useId();
  const markers = useMemo(() => clusterMarks(marks, duration), [marks, duration]);
  // Read when a tool is used (a click), never while rendering.
  const readNow = useCallback(() => element.current?.currentTime ?? time, [element, time]);

  useEffect(
    () => moments.register(media.id, { element: () => element.current, seek: events.seek }),
    [moments, media.id, element, events],
  );

  const commentHere = () => {
    const now = element.current?.currentTime ?? time;
    events.capture();
    composerEvents.start(media.id, now);
  };
  const activate = (marker: Marker) => {
    events.seek(marker.start);
    if (marker.targetId !== null) composerEvents.highlight(marker.targetId);
  };
  const poster = posterSource(media);
  const composing = draft.anchor?.media === media.id;

  return (
    <Figure id={`video-${media.id}`} aria-labelledby={captionId}>
      <figcaption id={captionId}>{label}</figcaption>
      <Player
        ref={element}
        controls
        preload="metadata"
        src={fileSource(media.url)}
        {...(poster ? { poster } : {})}
        aria-label={media.alt || label}
        onPlay={events.played}
        onPause={events.paused}
        onTimeUpdate={(e) => events.timeChanged(e.currentTarget.currentTime)}
        onLoadedMetadata={(e) => {
          onLoadedMetadata();
          if (Number.isFinite(e.currentTarget.duration)) events.durationKnown(e.currentTarget.duration);
        }}
      >
        {captions.tracks.map((t) => (
          <track key={t.id} kind="captions" src={captionUrl(t)} srcLang={t.language} label={t.label} />
        ))}
        {VIDEO_FALLBACK}
      </Player>
      <MomentMarkers markers={markers} label={label} onActivate={activate} />
      <Bar>
        {canComment && !composing ? (
          <Button type="button" $small onClick={commentHere} disabled={draft.busy}>
            {noun} at {formatClock(time)}
          </Button>
        ) : null}
        {captions.tracks.length > 0 ? (
          <label>
            Captions
            <select
              value={captions.trackId ?? ''}
              onChange={(e) => events.selectTrack(e.target.value === '' ? null : Number(e.target.value))}
            >
              <option value="">Off</option>
              {captions.tracks.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <span className="visually-hidden" aria-live="polite">
          {playing ? '' : time > 0 ? `Paused at ${formatClock(time)}` : ''}
        </span>
      </Bar>
      {composing ? <MomentComposer composer={composer} now={time} noun={noun} /> : null}
      {Tools ? <Tools mediaId={media.id} time={time} now={readNow} capture={events.capture} /> : null}
      <CaptionsPanel player={player} duration={duration} canCaption={canCaption} videoLabel={label} />
    </Figure>
  );
}
