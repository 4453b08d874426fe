import { useContext, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { Me } from '../../schemas/user.ts';
import { loginMachine } from '../../machines/login/loginMachine.ts';
import { LoginActorContext, loginInputOf } from '../../machines/login/useLogin.ts';
import { consumeOrigin, SessionActorContext, type SessionActorRef } from '../../machines/session/useSession.ts';
import { embeddedSignInMethods } from '../../services/configService.ts';
import { takeProviderLogout } from '../../services/logout.ts';
import { LoginPage } from '../../views/pages/LoginPage.tsx';
import { paths } from '../../views/paths.ts';

/*
 * The sign-in page, which comes with the app's shell (a cold visit lands on it most often), and the
 * wiring the password pages share with it; those pages load with their route (`passwordRoutes.tsx`).
 */

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
export function completeLogin({ navigate, session }: AuthWiring, user: Me): void {
  // Leave first, in the same tick: the public-only guard must not see the session before the address changed.
  navigate(consumeOrigin(paths.dashboard), { replace: true });
  session.send({ type: 'session.loggedIn', user });
}

/** The login machine with the app's alerts, navigation and session. */
export function provideLogin(wiring: AuthWiring) {
  return loginMachine.provide({
    actions: {
      completeLogin: (_, params) => completeLogin(wiring, params.user),
      // A full-page navigation: the server redirects on to the provider.
      goToProvider: (_, params) => window.location.assign(params.provider.start),
      goToProviderLogout: (_, params) => window.location.assign(params.url),
    },
  });
}

/** `/login`. */
export function LoginRoute() {
  const wiring = useAuthWiring();
  const logic = useMemo(() => provideLogin(wiring), [wiring]);
  const search = useSearch();
  const input = useMemo(() => loginInputOf(search, takeProviderLogout(), embeddedSignInMethods()), [search]);
  return (
    <LoginActorContext.Provider logic={logic} options={{ input }}>
      <LoginPage />
    </LoginActorContext.Provider>
  );
}
