import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { reauthMachine, ReauthMethod } from './reauthMachine.ts';

export type ReauthRef = ActorRefFrom<typeof reauthMachine>;

/** What the sign-in dialog shows: whether it is open, the account, the password, the message, busy. */
export function useReauth(ref: ReauthRef) {
  const open = useSelector(ref, (s) => s.matches('asking') || s.matches('signingIn'));
  const email = useSelector(ref, (s) => s.context.email);
  const methods = useSelector(ref, (s) => s.context.methods);
  const password = useSelector(ref, (s) => s.context.password);
  const error = useSelector(ref, (s) => s.context.error);
  const busy = useSelector(ref, (s) => s.hasTag('busy'));
  return { open, email, methods, password, error, busy };
}

/** What the sign-in dialog may ask. */
export function useReauthEvents(ref: ReauthRef) {
  return useMemo(
    () => ({
      changePassword: (value: string) => ref.send({ type: 'field.change', value }),
      submit: (method: ReauthMethod) => ref.send({ type: 'reauth.submit', method }),
      giveUp: () => ref.send({ type: 'reauth.giveUp' }),
    }),
    [ref],
  );
}
