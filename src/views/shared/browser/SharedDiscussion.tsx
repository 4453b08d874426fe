import { useScoringActor } from '../../../machines/scoring/useScoring.ts';
import { ScoreList } from '../../scoring/ScoreList.tsx';
import { SharedVideoMoments, type SharedVideoMomentsProps } from '../../video/SharedVideoMoments.tsx';
import { CommentThread } from '../discussion/CommentThread.tsx';
import { ReactionsBar } from '../discussion/ReactionsBar.tsx';

export type SharedDiscussionProps = Omit<SharedVideoMomentsProps, 'children' | 'scoring'> & {
  /** The shared portfolio of the artifact (whose rubric scores it). */
  sharedPortfolioId: number;
};

/**
 * A shared artifact's videos with their moments and rubric scores, its reactions, its scores and
 * its comment thread (which reads the moment state: filter, order, the highlighted comment).
 * Loaded on first use, with the scoring (decision 055).
 */
export function SharedDiscussion({ sharedPortfolioId, ...props }: SharedDiscussionProps) {
  const scoring = useScoringActor({ sharedPortfolioId, artifactId: props.artifactId });
  return (
    <SharedVideoMoments {...props} scoring={scoring}>
      <ReactionsBar discussion={props.discussion} />
      <ScoreList scoring={scoring} videos={props.videos} />
      <CommentThread discussion={props.discussion} mutable={props.mutable} />
    </SharedVideoMoments>
  );
}
