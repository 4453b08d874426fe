import { useExternalValue, useSelector, type ExternalValue } from '../shared/actorReact.ts';
import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { Me } from '../../schemas/user.ts';
import { currentUser, peekOrigin, storeOrigin, takeOrigin } from '../../services/session.ts';
import type { sessionMachine } from './sessionMachine.ts';

export type SessionActorRef = ActorRefFrom<typeof sessionMachine>;

/** The app's one session actor. */
export const SessionActorContext = createContext<SessionActorRef | null>(null);

function useSessionActor(): SessionActorRef {
  const actor = useContext(SessionActorContext);
  if (!actor) throw new Error('useSession* must be used inside SessionActorContext');
  return actor;
}

/** `checking` | `unreachable` | `anonymous` | `authenticated` | … */
export function useSessionState(): string {
  const actor = useSessionActor();
  return useSelector(actor, (s) => String(s.value));
}

/** The user as views read it: a change (the session checked as a page opens) is drawn as a transition. */
const currentUserValue: ExternalValue<Me | null> = {
  get: () => currentUser.peek(),
  subscribe: (onChange) => currentUser.subscribe(onChange),
};

/** The signed-in user, or `null`. */
export function useCurrentUser(): Me | null {
  return useExternalValue(currentUserValue);
}

/** What views may ask of the session. */
export function useSessionEvents() {
  const actor = useSessionActor();
  return {
    logout: () => actor.send({ type: 'session.logout' }),
    retry: () => actor.send({ type: 'retry' }),
  };
}

/** Remembers the private path an anonymous visitor asked for (spec §2 routing rules). */
export const rememberOrigin = (path: string): void => storeOrigin(path);

/** Where to go after logging in: the remembered origin (forgotten now) or the dashboard. */
export function consumeOrigin(fallback: string): string {
  const origin = takeOrigin();
  return origin && origin.startsWith('/') && !origin.startsWith('//') ? origin : fallback;
}

/** The remembered origin, kept for later. */
export const currentOrigin = (): string | null => peekOrigin();

/** Whether the sign-in page was opened on the way to an invitation (its link opened signed out). */
export const useSignInForInvitation = (): boolean => /^\/invitation\/[0-9]+$/.test(peekOrigin() ?? '');
