import { SharedVideoMoments, type SharedVideoMomentsProps } from '../../video/SharedVideoMoments.tsx';
import { CommentThread } from '../discussion/CommentThread.tsx';
import { ReactionsBar } from '../discussion/ReactionsBar.tsx';

/**
 * A shared artifact's videos with their moments, its reactions and its comment thread (which
 * reads the moment state: filter, order, the highlighted comment). Loaded on first use.
 */
export function SharedDiscussion(props: Omit<SharedVideoMomentsProps, 'children'>) {
  return (
    <SharedVideoMoments {...props}>
      <ReactionsBar discussion={props.discussion} />
      <CommentThread discussion={props.discussion} mutable={props.mutable} />
    </SharedVideoMoments>
  );
}
