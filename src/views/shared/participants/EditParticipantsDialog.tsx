import { useEffect, useId, useRef, type FormEvent } from 'react';
import styled from 'styled-components';
import {
  useParticipants,
  useParticipantsEvents,
  useParticipantsStatus,
  type ParticipantsRef,
} from '../../../machines/participants/useParticipants.ts';
import { Button } from '../../components/Button.tsx';
import { ConfirmDialog, Dialog, DialogActions } from '../../components/Dialog.tsx';
import { Input, Label } from '../../components/Field.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { theme } from '../../theme/theme.ts';

/** The list gets a border when it holds more than this many people (spec §9). */
export const BORDER_AFTER = 4;

/** The question before someone is removed: the person by their display name, and what removing means. */
export const removalQuestion = (username: string): string =>
  `Remove ${username} from this shared portfolio? They will no longer see or comment on its artifacts.`;

const Columns = styled.div`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: ${theme.space.lg};
  @media (max-width: 640px) {
    grid-template-columns: minmax(0, 1fr);
  }
  h3 {
    font-size: ${theme.font.size.md};
    margin-bottom: ${theme.space.sm};
  }
`;

const SearchRow = styled.div`
  display: flex;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.xs};
  & > input {
    flex: 1;
    min-width: 0;
  }
`;

const Message = styled.p<{ $invalid: boolean }>`
  margin: ${theme.space.xs} 0 0;
  min-height: 1.5em;
  font-size: ${theme.font.size.sm};
  color: ${({ $invalid }) => ($invalid ? theme.color.danger : theme.color.textMuted)};
`;

const Matches = styled.ul`
  list-style: none;
  margin: ${theme.space.sm} 0 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xs};
`;

const MatchButton = styled.button`
  width: 100%;
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  padding: ${theme.space.sm};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surface};
  text-align: start;
  cursor: pointer;
  &:hover:not(:disabled) {
    background: ${theme.color.surfaceAlt};
    border-color: ${theme.color.primary};
  }
  &:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }
  small {
    color: ${theme.color.textMuted};
    overflow-wrap: anywhere;
  }
`;

const People = styled.ul<{ $bordered: boolean }>`
  list-style: none;
  margin: 0;
  padding: ${({ $bordered }) => ($bordered ? theme.space.sm : 0)};
  max-height: 320px;
  overflow: auto;
  border: ${({ $bordered }) => ($bordered ? `1px solid ${theme.color.border}` : 'none')};
  border-radius: ${theme.radius.sm};
  li {
    display: flex;
    align-items: center;
    gap: ${theme.space.sm};
    padding: ${theme.space.xs} 0;
  }
  li + li {
    border-top: 1px solid ${theme.color.surfaceAlt};
  }
`;

const Who = styled.div`
  flex: 1;
  min-width: 0;
  display: flex;
  flex-direction: column;
  small {
    color: ${theme.color.textMuted};
    overflow-wrap: anywhere;
  }
`;

const Pending = styled.span`
  color: ${theme.color.warning};
  font-style: italic;
`;

const RemoveButton = styled.button`
  flex-shrink: 0;
  width: 32px;
  height: 32px;
  border: 1px solid ${theme.color.border};
  border-radius: 50%;
  background: ${theme.color.surface};
  color: ${theme.color.danger};
  font-size: 1.1rem;
  line-height: 1;
  cursor: pointer;
  &:hover:not(:disabled) {
    border-color: ${theme.color.danger};
  }
  &:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }
`;

const Empty = styled.p`
  color: ${theme.color.textMuted};
  margin: 0;
`;

function AddParticipants({ actorRef }: { actorRef: ParticipantsRef }) {
  const { text, message, invalid, matches, searching, busy, inviting } = useParticipants(actorRef);
  const { changeSearch, submitInvite, invitePerson } = useParticipantsEvents(actorRef);
  const headingId = useId();
  const inputId = useId();
  const messageId = useId();
  const input = useRef<HTMLInputElement>(null);

  // The list arrives after the dialog opened: then the search box takes the focus.
  useEffect(() => input.current?.focus(), []);

  const handleSubmit = (event: FormEvent) => {
    // The dialog sits inside the page's form in React's tree: keep this submit to itself.
    event.preventDefault();
    event.stopPropagation();
    if (!busy) submitInvite();
  };

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Add Participants to Portfolio</h3>
      <form noValidate onSubmit={handleSubmit}>
        <Label htmlFor={inputId}>Email</Label>
        <SearchRow>
          <Input
            ref={input}
            id={inputId}
            type="email"
            autoComplete="off"
            placeholder="Search by e-mail or name"
            value={text}
            readOnly={busy}
            $invalid={invalid}
            aria-invalid={invalid || undefined}
            aria-describedby={messageId}
            onChange={(e) => changeSearch(e.target.value)}
          />
          <Button type="submit" disabled={busy}>
            Invite
          </Button>
        </SearchRow>
        <Message id={messageId} $invalid={invalid} aria-live="polite">
          {message ?? ''}
        </Message>
      </form>
      {searching ? <Spinner label="Searching" /> : null}
      {inviting ? <Spinner label="Inviting" /> : null}
      {matches.length > 0 ? (
        <Matches aria-label="People you can invite">
          {matches.map((person) => (
            <li key={person.id}>
              <MatchButton
                type="button"
                disabled={busy}
                aria-label={`Invite ${person.username} (${person.email})`}
                onClick={() => invitePerson(person)}
              >
                <span>{person.username}</span>
                <small>{person.email}</small>
              </MatchButton>
            </li>
          ))}
        </Matches>
      ) : null}
    </section>
  );
}

function PortfolioParticipants({ actorRef }: { actorRef: ParticipantsRef }) {
  const { participants, busy } = useParticipants(actorRef);
  const { remove } = useParticipantsEvents(actorRef);
  const headingId = useId();
  const bordered = participants.length > BORDER_AFTER;
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Portfolio Participants</h3>
      {participants.length === 0 ? (
        <Empty>Nobody has joined or been invited yet.</Empty>
      ) : (
        <People aria-labelledby={headingId} $bordered={bordered} data-bordered={bordered || undefined}>
          {participants.map(({ person, pending }) => (
            <li key={`${pending ? 'pending' : 'member'}-${person.id}`}>
              <Who>
                <span>
                  {person.username}
                  {pending ? <Pending> (Pending)</Pending> : null}
                </span>
                <small>{person.email}</small>
              </Who>
              <RemoveButton
                type="button"
                aria-label={`Remove ${person.username}`}
                title={`Remove ${person.username}`}
                disabled={busy}
                onClick={() => remove(person.id)}
              >
                <span aria-hidden="true">×</span>
              </RemoveButton>
            </li>
          ))}
        </People>
      )}
    </section>
  );
}

/**
 * Edit Participants: on the left, search people by e-mail or name and invite them (or anyone by
 * e-mail address); on the right, the members and pending invitees, each with a remove button
 * that asks first. The owner is not listed.
 */
export function EditParticipantsDialog({ actorRef }: { actorRef: ParticipantsRef }) {
  const status = useParticipantsStatus(actorRef);
  const { busy, removal, confirming, announcement, error } = useParticipants(actorRef);
  const { close, retry, confirmRemoval, cancelRemoval } = useParticipantsEvents(actorRef);
  if (status === 'closed') return null;
  return (
    <Dialog title="Edit Participants" wide {...(busy ? {} : { onClose: close })}>
      {status === 'loading' ? <Spinner label="Loading participants" /> : null}
      {status === 'loadFailed' ? (
        <div role="alert">
          <p>The participants could not be loaded. {error?.message}</p>
          <Button type="button" onClick={retry}>
            Try again
          </Button>
        </div>
      ) : null}
      {status === 'ready' ? (
        <Columns>
          <AddParticipants actorRef={actorRef} />
          <PortfolioParticipants actorRef={actorRef} />
        </Columns>
      ) : null}
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      <DialogActions>
        <Button type="button" $variant="secondary" onClick={close} disabled={busy}>
          Close
        </Button>
      </DialogActions>
      {confirming && removal ? (
        <ConfirmDialog
          title="Remove Participant"
          message={removalQuestion(removal.person.username)}
          confirmLabel="Yes"
          cancelLabel="NO"
          busy={busy}
          onConfirm={confirmRemoval}
          onCancel={cancelRemoval}
        />
      ) : null}
    </Dialog>
  );
}
