import { useEffect } from 'react';
import { useCurrentUser } from '../machines/session/useSession.ts';
import type { Me } from '../schemas/user.ts';
import { setReauthenticationHandler } from '../services/api.ts';
import { lazyPart } from '../views/components/lazyParts.tsx';

// The dialog and its machine load once someone is signed in; the calls refused meanwhile wait for it.
const ReauthPrompt = lazyPart(() => import('./ReauthPrompt.tsx'), 'ReauthPrompt', null);

/** The calls waiting for the user to sign in again (each is told whether to try again). */
let waiting: ((again: boolean) => void)[] = [];
/** Opens the dialog; null until the dialog's module has arrived. */
let ask: (() => void) | null = null;

function settle(again: boolean): void {
  const calls = waiting;
  waiting = [];
  for (const call of calls) call(again);
}

/** The dialog takes over: it asks at once for the calls refused before it arrived, then for every new one. */
function listen(next: () => void): () => void {
  ask = next;
  if (waiting.length > 0) next();
  return () => {
    if (ask === next) ask = null;
  };
}

function Reauth({ user }: { user: Me }) {
  useEffect(() => {
    setReauthenticationHandler(
      () =>
        new Promise<boolean>((resolve) => {
          waiting.push(resolve);
          ask?.();
        }),
    );
    return () => {
      setReauthenticationHandler(null);
      settle(false);
    };
  }, []);
  return <ReauthPrompt user={user} listen={listen} settle={settle} />;
}

/**
 * While someone is signed in: a call refused because the session ended opens "Sign in again"
 * over the page, and the refused calls are sent again once the same account signed in.
 */
export function Reauthentication() {
  const user = useCurrentUser();
  return user ? <Reauth key={user.id} user={user} /> : null;
}
