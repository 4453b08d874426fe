import { useActorRef } from '@xstate/react';
import { useContext, useEffect, useMemo } from 'react';
import { useLocation } from 'wouter';
import { reauthMachine } from '../machines/reauth/reauthMachine.ts';
import { rememberOrigin, SessionActorContext, useCurrentUser } from '../machines/session/useSession.ts';
import type { Me } from '../schemas/user.ts';
import { setReauthenticationHandler } from '../services/api.ts';
import { signIn } from '../services/session.ts';
import { leaveWithoutAsking } from './navigation/leaveGuard.ts';
import { ReauthDialog } from '../views/session/ReauthDialog.tsx';

/** The calls waiting for the user to sign in again (each is told whether to try again). */
let waiting: ((again: boolean) => void)[] = [];

function settle(again: boolean): void {
  const calls = waiting;
  waiting = [];
  for (const call of calls) call(again);
}

function Reauth({ user }: { user: Me }) {
  const session = useContext(SessionActorContext);
  const [, navigate] = useLocation();
  const logic = useMemo(
    () =>
      reauthMachine.provide({
        actions: {
          signedInAgain: (_, params) => {
            signIn(params.user);
            settle(true);
          },
          gaveUp: () => {
            // Back here after signing in on the sign-in page; local drafts keep the typed text.
            rememberOrigin(`${window.location.pathname}${window.location.search}`);
            settle(false);
            session?.send({ type: 'session.expired' });
            leaveWithoutAsking(() => navigate('/login'));
          },
        },
      }),
    [session, navigate],
  );
  const actor = useActorRef(logic, { input: { email: user.email, userId: user.id } });
  useEffect(() => {
    setReauthenticationHandler(
      () =>
        new Promise<boolean>((resolve) => {
          waiting.push(resolve);
          actor.send({ type: 'reauth.needed' });
        }),
    );
    return () => {
      setReauthenticationHandler(null);
      settle(false);
    };
  }, [actor]);
  return <ReauthDialog reauth={actor} />;
}

/**
 * While someone is signed in: a call refused because the session ended opens "Sign in again"
 * over the page, and the refused calls are sent again once the same account signed in.
 */
export function Reauthentication() {
  const user = useCurrentUser();
  return user ? <Reauth key={user.id} user={user} /> : null;
}
