import type { FormEvent } from 'react';
import styled from 'styled-components';
import { PASSWORD_MIN } from '../../schemas/rules.ts';
import { useAppPasswordEvents, useAppPasswordForm } from '../../machines/appPassword/useAppPassword.ts';
import { APP_PASSWORD_MESSAGES } from '../../machines/appPassword/appPasswordMachine.ts';
import { focusField } from '../components/AuthCard.tsx';
import { BusyButton } from '../components/BusyButton.tsx';
import { panelStyle } from '../components/cardStyles.ts';
import { TextField } from '../components/Field.tsx';
import { NewPasswordFields } from '../components/NewPasswordFields.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { theme } from '../theme/theme.ts';

export const APP_PASSWORD_TITLE = 'Mobile App Password';

const Form = styled.form`
  max-width: 560px;
  padding: ${theme.space.lg};
  ${panelStyle}
  @media ${theme.media.phone} {
    padding: ${theme.space.md};
  }
`;

const Intro = styled.p`
  max-width: 560px;
  margin: 0 0 ${theme.space.md};
`;

const Outcome = styled.p<{ $tone: 'success' | 'danger' }>`
  margin: ${theme.space.md} 0 0;
  padding: ${theme.space.sm} ${theme.space.md};
  border-left: 4px solid ${({ $tone }) => theme.color[$tone]};
  background: ${theme.color.surfaceAlt};
  color: ${({ $tone }) => theme.color[$tone]};
  font-weight: ${theme.font.weight.medium};
`;

/**
 * `/settings/app-password` (private): the mobile apps sign in with an e-mail address and a
 * password only; a teacher who signs in to the portal with a school account sets one here.
 */
export function AppPasswordPage() {
  const { password, passwordConfirmation, currentPassword, fieldErrors, failure, saved, busy } = useAppPasswordForm();
  const { change, submit } = useAppPasswordEvents();
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    focusField(event.currentTarget, submit());
  };
  return (
    <>
      <PageHeading title={APP_PASSWORD_TITLE} />
      <Intro>
        The PracticeFolio mobile app signs in with your e-mail address and a password. If you sign in here with your
        school account, choose a password for the app (at least {PASSWORD_MIN} characters). Saving it signs you out
        everywhere else.
      </Intro>
      <Form noValidate aria-label="Mobile app password" onSubmit={handleSubmit} aria-busy={busy || undefined}>
        <NewPasswordFields
          password={password}
          passwordConfirmation={passwordConfirmation}
          errors={fieldErrors}
          busy={busy}
          onChange={change}
        />
        <TextField
          label="Current Password (only if you have one)"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          readOnly={busy}
          error={fieldErrors.currentPassword}
          onChange={(e) => change('currentPassword', e.target.value)}
        />
        <BusyButton type="submit" busy={busy} busyLabel="Saving your password…">
          SAVE PASSWORD
        </BusyButton>
        <div role="status">{saved ? <Outcome $tone="success">{APP_PASSWORD_MESSAGES.saved}</Outcome> : null}</div>
        {failure ? (
          <div role="alert">
            <Outcome $tone="danger">{failure}</Outcome>
          </div>
        ) : null}
      </Form>
    </>
  );
}
