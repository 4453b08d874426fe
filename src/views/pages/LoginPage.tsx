import type { FormEvent } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { useLoginEvents, useLoginForm } from '../../machines/login/useLogin.ts';
import { AuthActions, AuthCard, focusField } from '../components/AuthCard.tsx';
import { BusyButton } from '../components/BusyButton.tsx';
import { TextField } from '../components/Field.tsx';
import { paths } from '../paths.ts';

const ForgotLine = styled.p`
  margin: -${({ theme }) => theme.space.xs} 0 0;
  text-align: right;
  font-size: ${({ theme }) => theme.font.size.sm};
`;

/** `/login`: e-mail, password, a link to the forgot-password page and LOGIN (spec §2). */
export function LoginPage() {
  const { email, password, fieldErrors, busy } = useLoginForm();
  const { change, submit } = useLoginEvents();
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    focusField(event.currentTarget, submit());
  };
  return (
    <AuthCard title="Login" intro="Log in with the email address and password of your PracticeFolio account.">
      <form noValidate onSubmit={handleSubmit} aria-busy={busy || undefined}>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          value={email}
          readOnly={busy}
          error={fieldErrors.email}
          onChange={(e) => change('email', e.target.value)}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          readOnly={busy}
          error={fieldErrors.password}
          onChange={(e) => change('password', e.target.value)}
        />
        <ForgotLine>
          <Link href={paths.forgotPassword}>Forgot your password?</Link>
        </ForgotLine>
        <AuthActions>
          <BusyButton type="submit" busy={busy} busyLabel="Logging in…">
            LOGIN
          </BusyButton>
        </AuthActions>
      </form>
    </AuthCard>
  );
}
