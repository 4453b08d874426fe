import { useActorRef } from '@xstate/react';
import { useContext, useEffect, useMemo } from 'react';
import { useLocation } from 'wouter';
import { reauthMachine } from '../machines/reauth/reauthMachine.ts';
import { rememberOrigin, SessionActorContext } from '../machines/session/useSession.ts';
import type { Me } from '../schemas/user.ts';
import { signIn } from '../services/session.ts';
import { leaveWithoutAsking } from './navigation/leaveGuard.ts';
import { ReauthDialog } from '../views/session/ReauthDialog.tsx';

/**
 * The "Sign in again" dialog and its machine, loaded once someone is signed in (a chunk of its
 * own, so the sign-in page never carries it). `listen` hands over the calls refused so far and
 * every later one; `settle` tells the waiting calls whether to try again.
 */
export function ReauthPrompt({
  user,
  listen,
  settle,
}: {
  user: Me;
  listen: (ask: () => void) => () => void;
  settle: (again: boolean) => void;
}) {
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
    [session, navigate, settle],
  );
  const actor = useActorRef(logic, { input: { email: user.email, userId: user.id } });
  useEffect(() => listen(() => actor.send({ type: 'reauth.needed' })), [actor, listen]);
  return <ReauthDialog reauth={actor} />;
}
