import { useEffect, useId, useRef, type FormEvent, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import {
  useMomentCommentEvents,
  useMomentDraft,
  useMomentDraftForm,
  type MomentCommentRef,
} from '../../machines/momentComment/useMomentComment.ts';
import { useLocalDraft } from '../../machines/localDraft/useLocalDraft.ts';
import { useGuardedText } from '../../machines/typedTextGuard/useTypedTextGuard.ts';
import { COMMENT_MAX, REACTIONS } from '../../schemas/catalog.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { DraftOfferBar } from '../components/DraftOfferBar.tsx';
import { TextArea } from '../components/TextAreaField.tsx';
import { formatClock, formatMoment } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  padding: ${theme.space.md};
  border: 1px solid ${theme.color.primary};
  border-radius: ${theme.radius.md};
  background: ${theme.color.surface};
  h5 {
    margin: 0;
    font-size: ${theme.font.size.md};
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm};
`;

const Muted = styled.span`
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

const Alert = styled.p`
  margin: 0;
  color: ${theme.color.danger};
`;

const ReactionButton = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 36px;
  padding: 0 12px;
  border: 1px solid ${theme.color.borderStrong};
  border-radius: ${theme.radius.pill};
  background: ${theme.color.surface};
  color: ${theme.color.text};
  font: inherit;
  cursor: pointer;
  &:hover:not(:disabled) {
    background: ${theme.color.surfaceAlt};
  }
  &:disabled {
    opacity: 0.6;
    cursor: wait;
  }
`;

/**
 * The comment (or private note) at a moment being written: its time or range (Set end at the
 * video's current time, Clear end), the text, Post and Cancel (or Escape); on a shared artifact
 * a reaction can be placed at the moment instead.
 */
export function MomentComposer({
  composer,
  now,
  noun,
}: {
  composer: MomentCommentRef;
  /** The video's current time (for Set end). */ now: number;
  /** 'Comment' or 'Note'. */ noun: 'Comment' | 'Note';
}) {
  const { anchor, text, busy, canSubmit, canReact, error } = useMomentDraft(composer);
  const { changeText, setEnd, clearEnd, submit, cancel, react } = useMomentCommentEvents(composer);
  useGuardedText(text.trim() !== '');
  const offer = useLocalDraft({ form: useMomentDraftForm(composer), text, current: '', base: null, apply: changeText });
  const boxId = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, []);
  if (!anchor) return null;
  const at = formatMoment(anchor);
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  const handleKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !busy) {
      event.preventDefault();
      cancel();
    }
  };
  return (
    <Form
      data-keep-clear=""
      onSubmit={handleSubmit}
      onKeyDown={handleKeyDown}
      aria-label={`${noun} at ${at}`}
      aria-busy={busy || undefined}
    >
      <h5>
        {noun} at {at}
      </h5>
      <Row>
        {anchor.end === null ? (
          <Button
            type="button"
            $variant="secondary"
            $small
            disabled={busy || now <= anchor.start}
            onClick={() => setEnd(now)}
          >
            Set end at {formatClock(now)}
          </Button>
        ) : (
          <Button type="button" $variant="secondary" $small disabled={busy} onClick={clearEnd}>
            Clear end
          </Button>
        )}
        <Muted>
          {anchor.end === null
            ? 'Play on to the end of the passage, then set its end.'
            : `A passage of ${Math.round(anchor.end - anchor.start)} s.`}
        </Muted>
      </Row>
      {offer ? <DraftOfferBar offer={offer} what={noun.toLowerCase()} /> : null}
      <label htmlFor={boxId} className="visually-hidden">
        {noun} text
      </label>
      <TextArea
        ref={box}
        id={boxId}
        value={text}
        maxLength={COMMENT_MAX}
        readOnly={busy}
        placeholder={`Write a ${noun.toLowerCase()} at ${at}...`}
        onChange={(e) => changeText(e.target.value)}
      />
      {error ? <Alert role="alert">{error.message}</Alert> : null}
      <Row>
        <BusyButton type="submit" busy={busy} busyLabel={`Posting ${noun.toLowerCase()}…`} disabled={!canSubmit}>
          Post {noun}
        </BusyButton>
        <Button type="button" $variant="secondary" disabled={busy} onClick={cancel}>
          Cancel
        </Button>
      </Row>
      {canReact ? (
        <Row role="group" aria-label={`React at ${at}`}>
          <Muted>Or react at {at}:</Muted>
          {REACTIONS.map((r) => (
            <ReactionButton
              key={r.value}
              type="button"
              disabled={busy}
              aria-label={`${r.meaning} at ${at}`}
              onClick={() => react(r.value)}
            >
              <span aria-hidden="true">{r.value}</span> {r.meaning}
            </ReactionButton>
          ))}
        </Row>
      ) : null}
    </Form>
  );
}
