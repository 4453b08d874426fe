import { useId, type FormEvent } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { useLoginEvents, useLoginForm } from '../../machines/login/useLogin.ts';
import { useSignInForInvitation } from '../../machines/session/useSession.ts';
import { AuthActions, AuthCard, focusField } from '../components/AuthCard.tsx';
import { BusyButton } from '../components/BusyButton.tsx';
import { TextField } from '../components/Field.tsx';
import { paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';

const ForgotLine = styled.p`
  margin: -${theme.space.xs} 0 0;
  text-align: right;
  font-size: ${theme.font.size.sm};
  /* A target of at least 24 × 24 px (WCAG 2.2, 2.5.8). */
  a {
    display: inline-flex;
    align-items: center;
    min-height: 24px;
    padding: 2px 0;
  }
`;

/**
 * "Keep me signed in": the box and its label are one target, at least 24 × 24 px (WCAG 2.2,
 * 2.5.8); the hint under it says when to leave it unticked.
 */
const KeepSignedIn = styled.div`
  margin: ${theme.space.md} 0 0;
  label {
    display: inline-flex;
    align-items: center;
    gap: ${theme.space.sm};
    min-height: 24px;
    cursor: pointer;
  }
  input {
    width: 24px;
    height: 24px;
    margin: 0;
    flex-shrink: 0;
    accent-color: ${theme.color.primary};
    cursor: pointer;
  }
  input:disabled,
  input:disabled + span {
    cursor: default;
  }
  p {
    margin: ${theme.space.xxs} 0 0 calc(24px + ${theme.space.sm});
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.sm};
  }
`;

/** Why the login failed, right under the form that caused it. */
const Failure = styled.p`
  margin: ${theme.space.md} 0 0;
  padding: ${theme.space.sm} ${theme.space.md};
  border-left: 4px solid ${theme.color.danger};
  background: ${theme.color.surfaceAlt};
  color: ${theme.color.danger};
  font-weight: ${theme.font.weight.medium};
`;

/** The school accounts' buttons, one per line, above the e-mail form. */
const Providers = styled.ul`
  list-style: none;
  margin: 0 0 ${theme.space.lg};
  padding: 0;
  display: grid;
  gap: ${theme.space.sm};
  button {
    width: 100%;
    min-height: 44px;
    padding: ${theme.space.sm} ${theme.space.md};
    border: 1px solid ${theme.color.borderStrong};
    border-radius: ${theme.radius.md};
    background: ${theme.color.surface};
    color: ${theme.color.text};
    font: inherit;
    font-weight: ${theme.font.weight.medium};
    cursor: pointer;
  }
  button:hover:not(:disabled) {
    background: ${theme.color.surfaceAlt};
  }
  button:disabled {
    cursor: default;
  }
`;

/** "or", between the school accounts and the e-mail form. */
const Or = styled.p`
  display: flex;
  align-items: center;
  gap: ${theme.space.sm};
  margin: 0 0 ${theme.space.md};
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
  &::before,
  &::after {
    content: '';
    flex: 1;
    border-top: 1px solid ${theme.color.border};
  }
`;

/** After a single sign-on session was logged out: the provider's own sign-out, offered above all else. */
const SignedOut = styled.div`
  margin: 0 0 ${theme.space.lg};
  padding: ${theme.space.md};
  border-left: 4px solid ${theme.color.primary};
  background: ${theme.color.surfaceAlt};
  p {
    margin: 0 0 ${theme.space.sm};
  }
  button {
    min-height: 44px;
    padding: ${theme.space.sm} ${theme.space.md};
    border: 1px solid ${theme.color.borderStrong};
    border-radius: ${theme.radius.md};
    background: ${theme.color.surface};
    color: ${theme.color.text};
    font: inherit;
    font-weight: ${theme.font.weight.medium};
    cursor: pointer;
  }
  button:disabled {
    cursor: default;
  }
`;

/**
 * `/login`: a "Sign in with <label>" button for each school account's provider, then e-mail,
 * password, a link to the forgot-password page, "keep me signed in" (off by default: the session
 * then ends when the browser closes) and LOGIN (spec §2). With PASSWORD_LOGIN=false only the
 * buttons are shown. A refused sign-in at a provider comes back here with an alert that says what
 * to do. After a single sign-on session was logged out, "Also sign out of <label>" leads to the
 * provider's own sign-out.
 */
export function LoginPage() {
  const { email, password, fieldErrors, remember, busy, failure, providers, passwordLogin, providerLogout } =
    useLoginForm();
  const { change, setRemember, submit, startSso, followProviderLogout } = useLoginEvents();
  const keepHintId = useId();
  const invited = useSignInForInvitation();
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    focusField(event.currentTarget, submit());
  };
  return (
    <AuthCard
      title="Login"
      intro={
        invited
          ? 'Log in to see your invitation to a shared portfolio: it opens as soon as you are logged in.'
          : passwordLogin
            ? providers.length > 0
              ? 'Log in with your school account, or with the email address and password of your PracticeFolio account.'
              : 'Log in with the email address and password of your PracticeFolio account.'
            : 'Log in with your school account.'
      }
    >
      {providerLogout ? (
        <SignedOut role="status">
          <p>You have logged out of PracticeFolio. This browser may still be signed in to {providerLogout.label}.</p>
          <button type="button" disabled={busy} onClick={followProviderLogout}>
            Also sign out of {providerLogout.label}
          </button>
        </SignedOut>
      ) : null}
      {providers.length > 0 ? (
        <>
          <Providers aria-label="School accounts">
            {providers.map((p) => (
              <li key={p.id}>
                <button type="button" disabled={busy} onClick={() => startSso(p.id)}>
                  Sign in with {p.label}
                </button>
              </li>
            ))}
          </Providers>
          {passwordLogin ? <Or>or</Or> : null}
        </>
      ) : null}
      {!passwordLogin && failure ? (
        <div role="alert">
          <Failure>{failure}</Failure>
        </div>
      ) : null}
      {passwordLogin ? (
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
          <KeepSignedIn>
            <label>
              <input
                type="checkbox"
                name="remember"
                checked={remember}
                disabled={busy}
                aria-describedby={keepHintId}
                onChange={(e) => setRemember(e.target.checked)}
              />
              <span>Keep me signed in</span>
            </label>
            <p id={keepHintId}>For 30 days on this device. Leave it unticked on a shared or public computer.</p>
          </KeepSignedIn>
          <AuthActions>
            <BusyButton type="submit" busy={busy} busyLabel="Logging in…">
              LOGIN
            </BusyButton>
          </AuthActions>
          {failure ? (
            <div role="alert">
              <Failure>{failure}</Failure>
            </div>
          ) : null}
        </form>
      ) : null}
    </AuthCard>
  );
}
