import type { FormEvent } from 'react';
import styled from 'styled-components';
import { useReauth, useReauthEvents, type ReauthRef } from '../../machines/reauth/useReauth.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { Dialog } from '../components/Dialog.tsx';
import { TextField } from '../components/Field.tsx';
import { theme } from '../theme/theme.ts';

export const REAUTH_TITLE = 'Sign in again';

const Intro = styled.p`
  margin: 0 0 ${theme.space.md};
`;

const Alert = styled.p`
  margin: 0 0 ${theme.space.md};
  color: ${theme.color.danger};
  font-weight: 600;
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.md};
`;

/**
 * Over the page when the session ended during work: the account's password (one section per way
 * of signing in), Sign in (what was being saved is sent again), or Go to the sign-in page.
 */
export function ReauthDialog({ reauth }: { reauth: ReauthRef }) {
  const { open, email, methods, password, error, busy } = useReauth(reauth);
  const { changePassword, submit, giveUp } = useReauthEvents(reauth);
  if (!open) return null;
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit('password');
  };
  return (
    <Dialog title={REAUTH_TITLE} role="alertdialog">
      <Intro>
        Your session has ended. Sign in again to continue: your work on this page is kept, and what you were saving is
        saved once you are signed in.
      </Intro>
      {error ? <Alert role="alert">{error}</Alert> : null}
      {methods.includes('password') ? (
        <form noValidate onSubmit={handleSubmit} aria-busy={busy || undefined}>
          <TextField label="Email" name="email" type="email" autoComplete="username" value={email} readOnly />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            data-autofocus
            value={password}
            readOnly={busy}
            onChange={(e) => changePassword(e.target.value)}
          />
          <Actions>
            <BusyButton type="submit" busy={busy} busyLabel="Signing in…" disabled={password === ''}>
              Sign in
            </BusyButton>
            <Button type="button" $variant="secondary" disabled={busy} onClick={giveUp}>
              Go to the sign-in page
            </Button>
          </Actions>
        </form>
      ) : null}
    </Dialog>
  );
}
