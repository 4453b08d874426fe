import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import {
  useSignInMethods,
  useSignInMethodsEvents,
  type SignInMethodsRef,
} from '../../machines/signInMethods/useSignInMethods.ts';
import { formatDate } from '../../schemas/formatting.ts';
import type { LinkedIdentity, SignInMethodList } from '../../schemas/sso.ts';
import { Button } from '../components/Button.tsx';
import { Dialog, DialogActions } from '../components/Dialog.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { theme } from '../theme/theme.ts';

const Methods = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: ${theme.space.sm} ${theme.space.md};
    padding: ${theme.space.sm} 0;
    border-bottom: 1px solid ${theme.color.border};
  }
  li > div {
    min-width: 0;
    overflow-wrap: anywhere;
  }
  strong {
    display: block;
  }
  span {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.sm};
  }
`;

const Note = styled.p`
  margin: 0 0 ${theme.space.md};
  color: ${theme.color.textMuted};
`;

const Refusal = styled.p`
  margin: ${theme.space.md} 0 0;
  padding: ${theme.space.sm} ${theme.space.md};
  border-left: 4px solid ${theme.color.danger};
  background: #fbeceb;
  color: ${theme.color.danger};
  font-weight: ${theme.font.weight.medium};
`;

const Confirm = styled.div`
  margin-top: ${theme.space.md};
  padding: ${theme.space.md};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  background: ${theme.color.surfaceAlt};
  p {
    margin: 0;
  }
  ${DialogActions} {
    margin-top: ${theme.space.md};
    flex-wrap: wrap;
  }
`;

const ConfirmButton = styled(Button)`
  &[aria-disabled='true'] {
    opacity: 0.75;
    cursor: progress;
  }
`;

/** The account's methods: a password line, and one line per linked identity with its Unlink button. */
function MethodList({
  methods,
  locked,
  onUnlink,
}: {
  methods: SignInMethodList;
  locked: boolean;
  onUnlink: (identity: LinkedIdentity) => void;
}) {
  return (
    <Methods aria-label="Sign-in methods">
      <li>
        <div>
          <strong>Password</strong>
          <span>{methods.password ? 'E-mail and password' : 'No password set'}</span>
        </div>
      </li>
      {methods.identities.map((identity) => (
        <li key={identity.id}>
          <div>
            <strong>{identity.label}</strong>
            <span>
              {identity.email} · linked {formatDate(identity.linked_at)}
            </span>
          </div>
          <Button
            type="button"
            $variant="secondary"
            $small
            aria-label={`Unlink ${identity.label} (${identity.email})`}
            disabled={locked}
            onClick={() => onUnlink(identity)}
          >
            Unlink
          </Button>
        </li>
      ))}
      {methods.identities.length === 0 ? (
        <li>
          <span>No school account is linked.</span>
        </li>
      ) : null}
    </Methods>
  );
}

/** The question before an unlink; it takes the focus when it appears. */
function ConfirmUnlink({
  identity,
  username,
  busy,
  onCancel,
  onConfirm,
}: {
  identity: LinkedIdentity;
  username: string;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <Confirm role="group" aria-label="Confirm unlinking" aria-busy={busy || undefined}>
      <p>
        Unlink {identity.label} ({identity.email}) from {username}? The account keeps its other sign-in methods.
      </p>
      <DialogActions>
        {busy ? <Spinner label="Unlinking" /> : null}
        <Button ref={keep} type="button" $variant="secondary" onClick={onCancel} disabled={busy}>
          Keep it
        </Button>
        {/* Stays focusable while busy (aria-disabled), so the focus does not fall out of the dialog. */}
        <ConfirmButton type="button" $variant="danger" onClick={onConfirm} aria-disabled={busy || undefined}>
          Unlink
        </ConfirmButton>
      </DialogActions>
    </Confirm>
  );
}

/**
 * One account's sign-in methods: whether it has a password, and each linked school account with
 * its e-mail and when it was linked. Unlinking asks first; the server's answer is what is shown.
 */
export function SignInMethodsDialog({ actorRef }: { actorRef: SignInMethodsRef }) {
  const { status, account, methods, pending, loadError, refusal } = useSignInMethods(actorRef);
  const { close, retry, unlink, cancel, confirm } = useSignInMethodsEvents(actorRef);
  const closeButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // When the question goes (answered or kept), the focus it held goes to Close, inside the dialog.
  useEffect(() => {
    if (asked.current && !pending) closeButton.current?.focus();
    asked.current = pending !== null;
  }, [pending]);
  if (status === 'closed' || !account) return null;
  const unlinking = status === 'unlinking';

  return (
    <Dialog title={`Sign-in methods: ${account.username}`} onClose={close}>
      <Note>An unlinked school account can link again by its e-mail at its next sign-in.</Note>
      {status === 'loading' ? <Spinner label="Loading sign-in methods" /> : null}
      {status === 'loadFailed' ? (
        <Refusal role="alert">{loadError?.message ?? 'The sign-in methods could not be loaded.'}</Refusal>
      ) : null}
      {methods ? <MethodList methods={methods} locked={status !== 'shown'} onUnlink={unlink} /> : null}
      {pending ? (
        <ConfirmUnlink
          identity={pending}
          username={account.username}
          busy={unlinking}
          onCancel={cancel}
          onConfirm={confirm}
        />
      ) : null}
      {refusal ? <Refusal role="alert">{refusal}</Refusal> : null}
      <DialogActions>
        {status === 'loadFailed' ? (
          <Button type="button" onClick={retry}>
            Try again
          </Button>
        ) : null}
        <Button ref={closeButton} type="button" $variant="secondary" onClick={close} disabled={unlinking}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
