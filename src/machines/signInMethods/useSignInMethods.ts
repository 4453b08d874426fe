import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { LinkedIdentity, SignInMethodList } from '../../schemas/sso.ts';
import type { UiError } from '../../services/errors.ts';
import { useSelector } from '../shared/actorReact.ts';
import type { MethodsAccount, signInMethodsMachine } from './signInMethodsMachine.ts';

export type SignInMethodsRef = ActorRefFrom<typeof signInMethodsMachine>;

export type SignInMethodsStatus = 'closed' | 'loading' | 'loadFailed' | 'shown' | 'confirming' | 'unlinking';

/** Where the dialog stands, and what it shows. */
export function useSignInMethods(ref: SignInMethodsRef): {
  status: SignInMethodsStatus;
  account: MethodsAccount | null;
  methods: SignInMethodList | null;
  pending: LinkedIdentity | null;
  loadError: UiError | null;
  refusal: string | null;
} {
  const status = useSelector(ref, (s): SignInMethodsStatus => {
    if (s.matches('closed')) return 'closed';
    if (s.matches({ open: 'loadFailed' })) return 'loadFailed';
    if (s.matches({ open: 'shown' })) return 'shown';
    if (s.matches({ open: 'confirming' })) return 'confirming';
    if (s.matches({ open: 'unlinking' })) return 'unlinking';
    return 'loading';
  });
  const account = useSelector(ref, (s) => s.context.account);
  const methods = useSelector(ref, (s) => s.context.methods);
  const pending = useSelector(ref, (s) => s.context.pending);
  const loadError = useSelector(ref, (s) => s.context.loadError);
  const refusal = useSelector(ref, (s) => s.context.refusal);
  return { status, account, methods, pending, loadError, refusal };
}

/** What the dialog's view (and the table's rows) may ask. */
export function useSignInMethodsEvents(ref: SignInMethodsRef) {
  return useMemo(
    () => ({
      open: (account: MethodsAccount) => ref.send({ type: 'methods.open', account }),
      close: () => ref.send({ type: 'dialog.close' }),
      retry: () => ref.send({ type: 'retry' }),
      unlink: (identity: LinkedIdentity) => ref.send({ type: 'identity.unlink', identity }),
      cancel: () => ref.send({ type: 'identity.cancel' }),
      confirm: () => ref.send({ type: 'identity.confirm' }),
    }),
    [ref],
  );
}
