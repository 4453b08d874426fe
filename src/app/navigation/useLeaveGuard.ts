import { useEffect } from 'react';
import { registerLeaveGuard } from './leaveGuard.ts';

/** A running form machine, as the guard sees it. */
interface FormActor<S> {
  send(event: { type: 'leave.request' }): void;
  getSnapshot(): S;
}

/**
 * While the calling page is shown, its form's machine decides whether the user may leave:
 * navigations are held and the machine hears `leave.request`; reloading or closing the tab asks
 * while `hasUnsavedChanges(snapshot)` says so.
 */
export function useLeaveGuard<S extends { status: string }>(
  actor: FormActor<S>,
  hasUnsavedChanges: (snapshot: S) => boolean,
): void {
  useEffect(
    () =>
      registerLeaveGuard({
        request: () => actor.send({ type: 'leave.request' }),
        hasUnsavedChanges: () => {
          const snapshot = actor.getSnapshot();
          return snapshot.status === 'active' && hasUnsavedChanges(snapshot);
        },
      }),
    [actor, hasUnsavedChanges],
  );
}
