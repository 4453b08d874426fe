import { Fragment, useId, useMemo, type ReactNode } from 'react';
import styled from 'styled-components';
import { useSearch } from 'wouter';
import { byCaption, videoLabel } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import { useMomentCommentActor, useMomentsSetup } from '../../machines/momentComment/useMomentComment.ts';
import {
  useDiscussionComments,
  useDiscussionEvents,
  useDiscussionReactions,
  useDiscussionStatus,
  type DiscussionRef,
} from '../../machines/sharedArtifactDiscussion/useSharedArtifactDiscussion.ts';
import type { MomentMark } from '../../machines/videoPlayer/markers.ts';
import type { Media } from '../../schemas/media.ts';
import type { Comment, Reaction } from '../../schemas/sharedArtifact.ts';
import type { Score } from '../../schemas/rubrics.ts';
import type { ScoringRef } from '../../machines/scoring/scoringMachine.ts';
import { ScoringRefContext, useScoringData } from '../../machines/scoring/useScoring.ts';
import { VideoScoreTools } from '../scoring/ScorePicker.tsx';
import { MomentThreadProvider, useScrollToHashedComment } from './MomentThread.tsx';
import { VideoMoments } from './VideoMoments.tsx';
import { theme } from '../theme/theme.ts';

const Exports = styled.p`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.xs} ${theme.space.md};
  margin: 0;
  font-size: ${theme.font.size.sm};
`;

const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.lg};
  h4 {
    margin: 0;
    font-size: ${theme.font.size.lg};
  }
`;

/** The address's moment: `?media=<id>&t=<seconds>` and `#comment-<id>`. */
export function readMomentLink(
  search: string,
  hash: string,
): { media: number | null; time: number | null; comment: number | null } {
  const params = new URLSearchParams(search);
  const media = /^[0-9]{1,10}$/.test(params.get('media') ?? '') ? Number(params.get('media')) : null;
  const t = Number(params.get('t'));
  const time = params.has('t') && Number.isFinite(t) && t >= 0 ? t : null;
  const comment = /^#comment-([0-9]{1,10})$/.exec(hash)?.[1];
  return { media, time, comment: comment ? Number(comment) : null };
}

/** The marks of one video: its moment comments, moment reactions and rubric scores at moments. */
export function sharedMarks(
  media: number,
  comments: readonly Comment[],
  reactions: readonly Reaction[],
  scores: readonly Score[] = [],
): MomentMark[] {
  return [
    ...scores
      .filter((s) => s.moment?.media === media)
      .map((s): MomentMark => ({
        kind: 'score',
        id: s.id,
        start: s.moment!.start,
        end: s.moment!.end,
        who: s.scorer.username,
        value: `${s.level.label} on ${s.criterion.label}`,
      })),
    ...comments
      .filter((c) => c.moment?.media === media)
      .map((c): MomentMark => ({
        kind: 'comment',
        id: c.id,
        start: c.moment!.start,
        end: c.moment!.end,
        who: c.username,
      })),
    ...reactions
      .filter((r) => r.moment?.media === media)
      .map((r): MomentMark => ({
        kind: 'reaction',
        id: r.id,
        start: r.moment!.start,
        end: r.moment!.end,
        who: r.owner.username,
        value: r.value,
      })),
  ];
}

export interface SharedVideoMomentsProps {
  /** The shared artifact's id and videos. */
  artifactId: number;
  videos: readonly Media[];
  /** Its discussion (the markers show its comments and reactions; it hears of those placed at a moment). */
  discussion: DiscussionRef;
  /** A member or researcher: may comment, react and caption. */
  mutable: boolean;
  /** The artifact's rubric scores (markers on the timelines, a picker under each player). */
  scoring: ScoringRef;
  /** The reactions and the comment thread, which read the moment state. */
  children: ReactNode;
}

/**
 * The videos of a shared artifact with their timelines of comments and reactions at moments,
 * and the moment state the comment thread reads (filter, order, the highlighted comment). The
 * address may name a video and time (`?media=<id>&t=<seconds>`) and a comment (`#comment-<id>`).
 */
export function SharedVideoMoments({
  artifactId,
  videos,
  discussion,
  mutable,
  scoring,
  children,
}: SharedVideoMomentsProps) {
  const { scores } = useScoringData(scoring);
  const search = useSearch();
  const link = useMemo(
    () => readMomentLink(search, typeof window === 'undefined' ? '' : window.location.hash),
    [search],
  );
  // The composer's logic loads on first use, so the view spawns it and forwards what it saved.
  const { momentPosted } = useDiscussionEvents(discussion);
  const composer = useMomentCommentActor({ artifactId, target: 'comment', highlight: link.comment }, momentPosted);
  const comments = useDiscussionComments(discussion);
  const reactionList = useDiscussionReactions(discussion);
  const ready = useDiscussionStatus(discussion) === 'ready';
  useScrollToHashedComment(ready);
  const sorted = useMemo(() => [...videos].sort(byCaption), [videos]);
  const headingId = useId();
  const { momentsExportUrl } = useMomentsSetup();
  return (
    <ScoringRefContext.Provider value={scoring}>
      <MomentThreadProvider composer={composer} videos={sorted}>
        {sorted.length > 0 ? (
          <Section aria-labelledby={headingId}>
            <h4 id={headingId}>{sorted.length === 1 ? 'Video' : 'Videos'} and moments</h4>
            {sorted.map((video) => (
              <Fragment key={video.id}>
                <VideoMoments
                  media={video}
                  holder={{ kind: 'sharedArtifact', artifactId }}
                  marks={sharedMarks(video.id, comments, reactionList, scores)}
                  startAt={link.media === video.id ? link.time : null}
                  canComment={mutable}
                  canCaption={mutable}
                  noun="Comment"
                  tools={VideoScoreTools}
                />
                <Exports>
                  <a href={momentsExportUrl(artifactId, video.id, 'csv')} download>
                    Download the comments at moments of {videoLabel(video, sorted)} (CSV)
                  </a>
                  <a href={momentsExportUrl(artifactId, video.id, 'vtt')} download>
                    Download them as WebVTT captions
                  </a>
                </Exports>
              </Fragment>
            ))}
          </Section>
        ) : null}
        {children}
      </MomentThreadProvider>
    </ScoringRefContext.Provider>
  );
}
