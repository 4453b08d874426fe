import { useContext, useId, useMemo } from 'react';
import styled from 'styled-components';
import {
  commentAbilities,
  useCanChangeComment,
  useCommentDeletion,
  useCommentEditor,
  useCommentEvents,
  type CommentRef,
} from '../../../machines/comment/useComment.ts';
import {
  useDiscussionComments,
  useDiscussionError,
  useDiscussionEvents,
  useDiscussionStatus,
  useThreadRef,
  type DiscussionRef,
} from '../../../machines/sharedArtifactDiscussion/useSharedArtifactDiscussion.ts';
import { useCurrentUser } from '../../../machines/session/useSession.ts';
import type { Comment } from '../../../schemas/sharedArtifact.ts';
import { cardStyle, MutedText, stackedListStyle } from '../../components/cardStyles.ts';
import { Button } from '../../components/Button.tsx';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { Composer, EditForm } from './CommentForms.tsx';
import { CommentStamp, CommentText } from './CommentText.tsx';
import { MentionCandidatesContext } from './mentionCandidates.ts';
import { MomentTime, ThreadControls, useIsHighlighted, useVisibleComments } from '../../video/MomentThread.tsx';
import { theme } from '../../theme/theme.ts';

/** The question before deleting a comment (reference §13). */
export const DELETE_COMMENT_QUESTION = 'Are you sure you want to delete this comment?';

const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.md};
  h4 {
    margin: 0;
    font-size: ${theme.font.size.lg};
  }
`;

const List = styled.ol`
  ${stackedListStyle}
`;

const Item = styled.article`
  ${cardStyle}
  scroll-margin-top: 96px;
  &[data-highlighted='true'] {
    border-color: ${theme.color.primary};
    box-shadow: inset 4px 0 0 ${theme.color.primary};
    background: ${theme.color.surface};
  }
`;

const ItemHead = styled.header`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  gap: ${theme.space.xs} ${theme.space.sm};
  time {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.sm};
  }
`;

const ItemActions = styled.span`
  display: inline-flex;
  gap: ${theme.space.md};
  margin-left: auto;
`;

const Text = styled.p`
  margin: ${theme.space.xs} 0 0;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

/**
 * One comment: who wrote it, when it was posted (and 'edited' once changed), its text with its
 * @mentions shown as names, and (one's own) Edit and Delete.
 */
function CommentItem({
  thread,
  comment,
  editing,
  names,
}: {
  thread: CommentRef;
  comment: Comment;
  editing: boolean;
  /** Who its text may mention. */ names: readonly string[];
}) {
  const may = commentAbilities(comment);
  const highlighted = useIsHighlighted(comment.id);
  const editFree = useCanChangeComment(thread, comment.id, 'edit');
  const deleteFree = useCanChangeComment(thread, comment.id, 'delete');
  const { edit, askDelete } = useCommentEvents(thread);
  return (
    <li>
      <Item
        id={`comment-${comment.id}`}
        data-highlighted={highlighted || undefined}
        aria-current={highlighted || undefined}
        aria-label={`Comment by ${comment.username}`}
      >
        <ItemHead>
          <strong>{comment.username}</strong>
          <MomentTime comment={comment} />
          <CommentStamp comment={comment} />
          {(may.edit || may.delete) && !editing ? (
            <ItemActions>
              {may.edit ? (
                <Button
                  type="button"
                  $variant="link"
                  aria-label="Edit comment"
                  onClick={() => edit(comment.id)}
                  disabled={!editFree}
                >
                  Edit
                </Button>
              ) : null}
              {may.delete ? (
                <Button
                  type="button"
                  $variant="link"
                  aria-label="Delete comment"
                  onClick={() => askDelete(comment.id)}
                  disabled={!deleteFree}
                >
                  Delete
                </Button>
              ) : null}
            </ItemActions>
          ) : null}
        </ItemHead>
        {editing ? (
          <EditForm thread={thread} comment={comment} />
        ) : (
          <Text>
            <CommentText text={comment.text} names={names} />
          </Text>
        )}
      </Item>
    </li>
  );
}

/** The names a comment may mention: the shared portfolio's people, the viewer and the comments' authors. */
function useMentionableNames(comments: readonly Comment[]): readonly string[] {
  const candidates = useContext(MentionCandidatesContext);
  const viewer = useCurrentUser()?.username;
  return useMemo(
    () => [
      ...new Set([
        ...(candidates ?? []).map((c) => c.username),
        ...(viewer ? [viewer] : []),
        ...comments.map((c) => c.username),
      ]),
    ],
    [candidates, viewer, comments],
  );
}

/** The comments shown (or why none are), the new-comment box and the delete question, once the thread is there. */
function Comments({
  thread,
  comments,
  mutable,
}: {
  thread: CommentRef;
  comments: readonly Comment[];
  mutable: boolean;
}) {
  const shown = useVisibleComments(comments);
  const editor = useCommentEditor(thread);
  const deletion = useCommentDeletion(thread);
  const { confirmDelete, cancelDelete } = useCommentEvents(thread);
  const names = useMentionableNames(comments);
  return (
    <>
      {shown.length > 0 ? (
        <List>
          {shown.map((comment) => (
            <CommentItem
              key={comment.id}
              thread={thread}
              comment={comment}
              editing={editor.commentId === comment.id}
              names={names}
            />
          ))}
        </List>
      ) : (
        <MutedText>{comments.length > 0 ? 'No comments match this view.' : 'No comments yet.'}</MutedText>
      )}
      {mutable ? <Composer thread={thread} /> : null}
      {deletion.commentId !== null ? (
        <ConfirmDialog
          title="Delete Comment"
          message={DELETE_COMMENT_QUESTION}
          onConfirm={confirmDelete}
          onCancel={cancelDelete}
          busy={deletion.deleting}
        />
      ) : null}
    </>
  );
}

/**
 * The comments of a shared artifact, oldest first, with the new-comment box for members and
 * researchers; one's own comments can be edited in place or deleted after 'Are you sure you want
 * to delete this comment?'. The comments are the discussion's; the thread (a child of it) edits.
 */
export function CommentThread({
  discussion,
  mutable,
}: {
  discussion: DiscussionRef;
  /** Offer the new-comment box. */ mutable: boolean;
}) {
  const headingId = useId();
  const status = useDiscussionStatus(discussion);
  const error = useDiscussionError(discussion);
  const comments = useDiscussionComments(discussion);
  const thread = useThreadRef(discussion);
  const { retry } = useDiscussionEvents(discussion);
  return (
    <Section aria-labelledby={headingId}>
      <h4 id={headingId}>Comments</h4>
      <ThreadControls />
      {status === 'loading' ? <MutedText role="status">Loading comments…</MutedText> : null}
      {status === 'loadFailed' ? (
        <LoadFailed what="The comments could not be loaded." message={error?.message} onRetry={retry} />
      ) : null}
      {status === 'ready' && thread ? <Comments thread={thread} comments={comments} mutable={mutable} /> : null}
    </Section>
  );
}
