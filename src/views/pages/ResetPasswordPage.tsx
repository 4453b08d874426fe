import type { FormEvent } from 'react';
import { Link } from 'wouter';
import { PASSWORD_MIN } from '../../schemas/rules.ts';
import {
  usePasswordResetEvents,
  usePasswordResetForm,
  useSetsFirstPassword,
} from '../../machines/passwordReset/usePasswordReset.ts';
import { AuthActions, AuthCard, focusField } from '../components/AuthCard.tsx';
import { BusyButton } from '../components/BusyButton.tsx';
import { ButtonLink } from '../components/Button.tsx';
import { NewPasswordFields } from '../components/NewPasswordFields.tsx';
import { paths } from '../paths.ts';

/**
 * `/reset-password/:code`: New Password, Confirm New Password, SUBMIT and BACK TO LOGIN (spec §2).
 * People who never had a password (the link of a new account or an invitation) see
 * "Set your password" instead of "Reset Password".
 */
export function ResetPasswordPage() {
  const { password, passwordConfirmation, fieldErrors, busy } = usePasswordResetForm();
  const firstPassword = useSetsFirstPassword();
  const { change, submit } = usePasswordResetEvents();
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    focusField(event.currentTarget, submit());
  };
  return (
    <AuthCard
      title={firstPassword ? 'Set your password' : 'Reset Password'}
      intro={
        firstPassword
          ? `Welcome to PracticeFolio. Choose a password of at least ${PASSWORD_MIN} characters for your account. You will be logged in once it is saved.`
          : `Choose a new password of at least ${PASSWORD_MIN} characters. You will be logged in once it is saved.`
      }
    >
      <form noValidate onSubmit={handleSubmit} aria-busy={busy || undefined}>
        <NewPasswordFields
          password={password}
          passwordConfirmation={passwordConfirmation}
          errors={fieldErrors}
          busy={busy}
          onChange={change}
        />
        <AuthActions>
          <BusyButton type="submit" busy={busy} busyLabel="Saving your new password…">
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
