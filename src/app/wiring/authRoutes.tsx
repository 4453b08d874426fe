import { useContext, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { User } from '../../schemas/user.ts';
import { loginMachine } from '../../machines/login/loginMachine.ts';
import { LoginActorContext } from '../../machines/login/useLogin.ts';
import { passwordResetMachine } from '../../machines/passwordReset/passwordResetMachine.ts';
import { PasswordResetActorContext } from '../../machines/passwordReset/usePasswordReset.ts';
import { consumeOrigin, SessionActorContext, type SessionActorRef } from '../../machines/session/useSession.ts';
import { notify } from '../../views/feedback/toastStore.ts';
import { ForgotPasswordPage } from '../../views/pages/ForgotPasswordPage.tsx';
import { LoginPage } from '../../views/pages/LoginPage.tsx';
import { ResetPasswordPage } from '../../views/pages/ResetPasswordPage.tsx';
import { paths } from '../../views/paths.ts';

/** What the auth pages need from the app: navigation and the session. */
export interface AuthWiring {
  navigate: (to: string, options?: { replace?: boolean }) => void;
  session: SessionActorRef;
}

/** The app's navigation and session actor, for the auth pages. */
export function useAuthWiring(): AuthWiring {
  const [, navigate] = useLocation();
  const session = useContext(SessionActorContext);
  if (!session) throw new Error('The auth pages must be rendered inside SessionActorContext');
  return useMemo(() => ({ navigate, session }), [navigate, session]);
}

/** Lets the user in: leaves for the remembered origin (or the dashboard) and starts the session. */
function completeLogin({ navigate, session }: AuthWiring, user: User): void {
  // Leave first, in the same tick: the public-only guard must not see the session before the address changed.
  navigate(consumeOrigin(paths.dashboard), { replace: true });
  session.send({ type: 'session.loggedIn', user });
}

/** The login machine with the app's alerts, navigation and session. */
export function provideLogin(wiring: AuthWiring) {
  return loginMachine.provide({
    actions: {
      notifyFailure: (_, params) => notify(params.message, 'error'),
      completeLogin: (_, params) => completeLogin(wiring, params.user),
    },
  });
}

/** The password-reset machine with the app's alerts, navigation and session. */
export function providePasswordReset(wiring: AuthWiring) {
  return passwordResetMachine.provide({
    actions: {
      notifyInfo: (_, params) => notify(params.message, 'info'),
      notifySuccess: (_, params) => notify(params.message, 'success'),
      notifyFailure: (_, params) => notify(params.message, 'error'),
      goToLogin: () => wiring.navigate(paths.login),
      completeLogin: (_, params) => completeLogin(wiring, params.user),
    },
  });
}

/** `/login`. */
export function LoginRoute() {
  const wiring = useAuthWiring();
  const logic = useMemo(() => provideLogin(wiring), [wiring]);
  return (
    <LoginActorContext.Provider logic={logic}>
      <LoginPage />
    </LoginActorContext.Provider>
  );
}

/** `/forgot-password`. */
export function ForgotPasswordRoute() {
  const wiring = useAuthWiring();
  const logic = useMemo(() => providePasswordReset(wiring), [wiring]);
  return (
    <PasswordResetActorContext.Provider logic={logic} options={{ input: { flow: 'forgot' } }}>
      <ForgotPasswordPage />
    </PasswordResetActorContext.Provider>
  );
}

/** `/reset-password/:code`: a new code (another link) starts a new form. */
export function ResetPasswordRoute({ code }: { code: string }) {
  const wiring = useAuthWiring();
  const logic = useMemo(() => providePasswordReset(wiring), [wiring]);
  // Links of new accounts and invitations carry `?welcome=1`: those people set a first password.
  const welcome = new URLSearchParams(useSearch()).get('welcome') === '1';
  return (
    <PasswordResetActorContext.Provider key={code} logic={logic} options={{ input: { flow: 'reset', code, welcome } }}>
      <ResetPasswordPage />
    </PasswordResetActorContext.Provider>
  );
}
