import { createActorContext } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { UnsubscribeResponse } from '../../schemas/notifications.ts';
import type { UiError } from '../../services/errors.ts';
import { unsubscribeMachine } from './unsubscribeMachine.ts';

/** The unsubscribe page's actor; the app gives it the link's token as input. */
export const UnsubscribeActorContext = createActorContext(unsubscribeMachine);

export type UnsubscribeStatus = 'working' | 'done' | 'failed';

/** Where the page stands (a link without a token has failed at once). */
export const useUnsubscribeStatus = (): UnsubscribeStatus =>
  UnsubscribeActorContext.useSelector((s) =>
    s.matches('done') ? 'done' : s.matches('failed') || s.matches('noToken') ? 'failed' : 'working',
  );

/** What was turned off, for which (masked) address. */
export const useUnsubscribeResult = (): UnsubscribeResponse | null =>
  UnsubscribeActorContext.useSelector((s) => s.context.result);

/** Why the link did not work. */
export const useUnsubscribeError = (): UiError | null => UnsubscribeActorContext.useSelector((s) => s.context.error);

/** Whether trying again may help (offline, server trouble; not a tampered or expired link). */
export const useCanRetryUnsubscribe = (): boolean =>
  UnsubscribeActorContext.useSelector((s) => s.can({ type: 'retry' }));

/** What the page may ask. */
export function useUnsubscribeEvents() {
  const actor = UnsubscribeActorContext.useActorRef();
  return useMemo(() => ({ retry: () => actor.send({ type: 'retry' }) }), [actor]);
}
