import { useMemo } from 'react';
import { useSearch } from 'wouter';
import { passwordResetMachine } from '../../machines/passwordReset/passwordResetMachine.ts';
import { PasswordResetActorContext } from '../../machines/passwordReset/usePasswordReset.ts';
import { notify } from '../../views/feedback/toastStore.ts';
import { ForgotPasswordPage } from '../../views/pages/ForgotPasswordPage.tsx';
import { ResetPasswordPage } from '../../views/pages/ResetPasswordPage.tsx';
import { paths } from '../../views/paths.ts';
import { completeLogin, useAuthWiring, type AuthWiring } from './authRoutes.tsx';

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
