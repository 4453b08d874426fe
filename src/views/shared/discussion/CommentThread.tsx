import { useContext, useEffect, useId, useMemo, useRef, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import styled from 'styled-components';
import {
  commentAbilities,
  useCanChangeComment,
  useCommentDeletion,
  useCommentArtifactId,
  useCommentEditor,
  useCommentEvents,
  useComments,
  useCommentsError,
  useCommentsStatus,
  useCommentsSyncing,
  useComposer,
  type CommentRef,
} from '../../../machines/comment/useComment.ts';
import { useLocalDraft } from '../../../machines/localDraft/useLocalDraft.ts';
import { useCurrentUser } from '../../../machines/session/useSession.ts';
import { useGuardedText } from '../../../machines/typedTextGuard/useTypedTextGuard.ts';
import { COMMENT_MAX } from '../../../schemas/catalog.ts';
import type { Comment } from '../../../schemas/sharedArtifact.ts';
import { BusyButton } from '../../components/BusyButton.tsx';
import { cardStyle, MutedText, stackedListStyle } from '../../components/cardStyles.ts';
import { Button } from '../../components/Button.tsx';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { DraftOfferBar } from '../../components/DraftOfferBar.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { TextArea } from '../../components/TextAreaField.tsx';
import { CommentStamp, CommentText } from './CommentText.tsx';
import { MentionCandidatesContext } from './mentionCandidates.ts';
import { MentionTextArea } from './MentionTextArea.tsx';
import { MomentTime, ThreadControls, useIsHighlighted, useVisibleComments } from '../../video/MomentThread.tsx';

/** The placeholder of the new comment (reference §13). */
export const COMMENT_PLACEHOLDER = 'Write a comment...';

/** The question before deleting a comment (reference §13). */
export const DELETE_COMMENT_QUESTION = 'Are you sure you want to delete this comment?';

/** The counter under a comment box (spec §5). */
export const charactersUsed = (text: string): string => `${text.length}/${COMMENT_MAX} characters used`;

const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.md};
  h4 {
    margin: 0;
    font-size: ${({ theme }) => theme.font.size.lg};
  }
`;

const List = styled.ol`
  ${stackedListStyle}
`;

const Item = styled.article`
  ${cardStyle}
  scroll-margin-top: 96px;
  &[data-highlighted='true'] {
    border-color: ${({ theme }) => theme.color.primary};
    box-shadow: inset 4px 0 0 ${({ theme }) => theme.color.primary};
    background: ${({ theme }) => theme.color.surface};
  }
`;

const ItemHead = styled.header`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  gap: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.sm};
  time {
    color: ${({ theme }) => theme.color.textMuted};
    font-size: ${({ theme }) => theme.font.size.sm};
  }
`;

const ItemActions = styled.span`
  display: inline-flex;
  gap: ${({ theme }) => theme.space.md};
  margin-left: auto;
`;

const Text = styled.p`
  margin: ${({ theme }) => theme.space.xs} 0 0;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.xs};
`;

const FormFoot = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.sm};
  & > div {
    display: flex;
    gap: ${({ theme }) => theme.space.sm};
  }
`;

const Counter = styled.span`
  font-size: ${({ theme }) => theme.font.size.sm};
  color: ${({ theme }) => theme.color.textMuted};
`;

/** A comment box with its counter ('N/2500 characters used'); it takes at most 2500 characters. */
function CommentBox({
  label,
  value,
  onChange,
  readOnly,
  placeholder,
  onEscape,
  boxRef,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  readOnly: boolean;
  placeholder?: string | undefined;
  onEscape?: (() => void) | undefined;
  boxRef?: Ref<HTMLTextAreaElement>;
}) {
  const id = useId();
  const counterId = useId();
  const mentionable = useContext(MentionCandidatesContext);
  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape' && onEscape) {
      event.preventDefault();
      onEscape();
    }
  };
  const boxProps = {
    id,
    value,
    maxLength: COMMENT_MAX,
    placeholder,
    readOnly,
    'aria-describedby': counterId,
    onKeyDown: handleKeyDown,
  };
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      {mentionable ? (
        <MentionTextArea candidates={mentionable} boxRef={boxRef} {...boxProps} onValueChange={onChange} />
      ) : (
        <TextArea ref={boxRef} {...boxProps} onChange={(event) => onChange(event.target.value)} />
      )}
      <Counter id={counterId}>{charactersUsed(value)}</Counter>
    </>
  );
}

/** Editing one's comment in place: the box, Save (not for a blank text) and Cancel (or Escape). */
function EditForm({ thread, comment }: { thread: CommentRef; /** The comment as saved. */ comment: Comment }) {
  const { text, canSave, saving } = useCommentEditor(thread);
  useGuardedText(text !== comment.text);
  const { changeEdit, save, cancelEdit } = useCommentEvents(thread);
  const offer = useLocalDraft({
    form: `comment:${comment.id}`,
    text,
    current: comment.text,
    base: comment.updated_at,
    apply: changeEdit,
  });
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    save();
  };
  return (
    <Form onSubmit={handleSubmit}>
      {offer ? <DraftOfferBar offer={offer} what="comment" /> : null}
      <CommentBox
        label="Edit comment"
        value={text}
        onChange={changeEdit}
        readOnly={saving}
        onEscape={saving ? undefined : cancelEdit}
      />
      <FormFoot>
        <div>
          <BusyButton type="submit" $variant="primary" busy={saving} busyLabel="Saving comment…" disabled={!canSave}>
            Save
          </BusyButton>
          <Button type="button" $variant="secondary" onClick={cancelEdit} disabled={saving}>
            Cancel
          </Button>
        </div>
      </FormFoot>
    </Form>
  );
}

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

/**
 * The new comment: 'Write a comment...', the counter, and Post Comment (not for a blank comment).
 * Post Comment is disabled while posting and again once the box is empty, which drops the
 * focus; it goes back to the comment box, ready for the next comment.
 */
function Composer({ thread }: { thread: CommentRef }) {
  const { draft, canSubmit, posting } = useComposer(thread);
  const { changeDraft, submit } = useCommentEvents(thread);
  useGuardedText(draft.trim() !== '');
  const artifactId = useCommentArtifactId(thread);
  const offer = useLocalDraft({
    form: `comment:new:${artifactId}`,
    text: draft,
    current: '',
    base: null,
    apply: changeDraft,
  });
  const box = useRef<HTMLTextAreaElement>(null);
  const wasPosting = useRef(posting);
  useEffect(() => {
    const active = document.activeElement;
    if (wasPosting.current && !posting && (active === null || active === document.body)) box.current?.focus();
    wasPosting.current = posting;
  }, [posting]);
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  return (
    <Form onSubmit={handleSubmit}>
      {offer ? <DraftOfferBar offer={offer} what="comment" /> : null}
      <CommentBox
        label="Add a comment"
        value={draft}
        onChange={changeDraft}
        readOnly={posting}
        placeholder={COMMENT_PLACEHOLDER}
        boxRef={box}
      />
      <FormFoot>
        <BusyButton type="submit" busy={posting} busyLabel="Posting comment…" disabled={!canSubmit}>
          Post Comment
        </BusyButton>
      </FormFoot>
    </Form>
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

/**
 * The comments of a shared artifact, oldest first, with the new-comment box for members and
 * researchers; one's own comments can be edited in place or deleted after 'Are you sure you want
 * to delete this comment?'.
 */
export function CommentThread({
  thread,
  mutable,
}: {
  thread: CommentRef;
  /** Offer the new-comment box. */ mutable: boolean;
}) {
  const headingId = useId();
  const status = useCommentsStatus(thread);
  const error = useCommentsError(thread);
  const comments = useComments(thread);
  const shown = useVisibleComments(comments);
  const editor = useCommentEditor(thread);
  const deletion = useCommentDeletion(thread);
  const syncing = useCommentsSyncing(thread);
  const { retry, confirmDelete, cancelDelete } = useCommentEvents(thread);
  const names = useMentionableNames(comments);
  return (
    // Busy while the comments are brought up to date after a change.
    <Section aria-labelledby={headingId} aria-busy={syncing || undefined}>
      <h4 id={headingId}>Comments</h4>
      <ThreadControls />
      {status === 'loading' ? <MutedText role="status">Loading comments…</MutedText> : null}
      {status === 'loadFailed' ? (
        <LoadFailed what="The comments could not be loaded." message={error?.message} onRetry={retry} />
      ) : null}
      {status === 'ready' ? (
        shown.length > 0 ? (
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
        )
      ) : null}
      {status === 'ready' && mutable ? <Composer thread={thread} /> : null}
      {deletion.commentId !== null ? (
        <ConfirmDialog
          title="Delete Comment"
          message={DELETE_COMMENT_QUESTION}
          onConfirm={confirmDelete}
          onCancel={cancelDelete}
          busy={deletion.deleting}
        />
      ) : null}
    </Section>
  );
}
