import { useContext, useEffect, useId, useRef, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import styled from 'styled-components';
import {
  useCommentArtifactId,
  useCommentEditor,
  useCommentEvents,
  useComposer,
  type CommentRef,
} from '../../../machines/comment/useComment.ts';
import { useLocalDraft } from '../../../machines/localDraft/useLocalDraft.ts';
import { useGuardedText } from '../../../machines/typedTextGuard/useTypedTextGuard.ts';
import { COMMENT_MAX } from '../../../schemas/catalog.ts';
import type { Comment } from '../../../schemas/sharedArtifact.ts';
import { BusyButton } from '../../components/BusyButton.tsx';
import { Button } from '../../components/Button.tsx';
import { DraftOfferBar } from '../../components/DraftOfferBar.tsx';
import { TextArea } from '../../components/TextAreaField.tsx';
import { MentionCandidatesContext } from './mentionCandidates.ts';
import { MentionTextArea } from './MentionTextArea.tsx';
import { theme } from '../../theme/theme.ts';

/** The comment boxes of a thread: the new comment and the edit of one's own, each with its counter. */

/** The placeholder of the new comment (reference §13). */
export const COMMENT_PLACEHOLDER = 'Write a comment...';

/** The counter under a comment box (spec §5). */
export const charactersUsed = (text: string): string => `${text.length}/${COMMENT_MAX} characters used`;

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xs};
`;

const FormFoot = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space.sm};
  & > div {
    display: flex;
    gap: ${theme.space.sm};
  }
`;

const Counter = styled.span`
  font-size: ${theme.font.size.sm};
  color: ${theme.color.textMuted};
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
export function EditForm({ thread, comment }: { thread: CommentRef; /** The comment as saved. */ comment: Comment }) {
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
 * The new comment: 'Write a comment...', the counter, and Post Comment (not for a blank comment).
 * Post Comment is disabled while posting and again once the box is empty, which drops the
 * focus; it goes back to the comment box, ready for the next comment.
 */
export function Composer({ thread }: { thread: CommentRef }) {
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
