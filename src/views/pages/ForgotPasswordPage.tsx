import type { FormEvent } from 'react';
import { Link } from 'wouter';
import { usePasswordResetEvents, usePasswordResetForm } from '../../machines/passwordReset/usePasswordReset.ts';
import { AuthActions, AuthCard, focusField } from '../components/AuthCard.tsx';
import { BusyButton } from '../components/BusyButton.tsx';
import { ButtonLink } from '../components/Button.tsx';
import { TextField } from '../components/Field.tsx';
import { paths } from '../paths.ts';

/** `/forgot-password`: e-mail, SUBMIT and BACK TO LOGIN (spec §2). */
export function ForgotPasswordPage() {
  const { email, fieldErrors, busy } = usePasswordResetForm();
  const { change, submit } = usePasswordResetEvents();
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    focusField(event.currentTarget, submit());
  };
  return (
    <AuthCard
      title="Forgot Password"
      intro="Enter the email address of your account and we will send you a link to choose a new password."
    >
      <form noValidate onSubmit={handleSubmit} aria-busy={busy || undefined}>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          readOnly={busy}
          error={fieldErrors.email}
          onChange={(e) => change('email', e.target.value)}
        />
        <AuthActions>
          <BusyButton type="submit" busy={busy} busyLabel="Sending the reset link…">
            SUBMIT
          </BusyButton>
          <Link href={paths.login} asChild>
            <ButtonLink $variant="secondary">BACK TO LOGIN</ButtonLink>
          </Link>
        </AuthActions>
      </form>
    </AuthCard>
  );
}
