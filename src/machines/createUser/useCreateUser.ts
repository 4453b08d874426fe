import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { createUserMachine } from './createUserMachine.ts';
import type { NewUserErrors, NewUserField, NewUserValues } from './newUserForm.ts';

export type CreateUserRef = ActorRefFrom<typeof createUserMachine>;

/** The dialog's state: whether it is open, sending, or failed, and the form. */
export function useCreateUser(ref: CreateUserRef): {
  open: boolean;
  busy: boolean;
  failed: boolean;
  values: NewUserValues;
  errors: NewUserErrors;
} {
  const open = useSelector(ref, (s) => s.matches('open'));
  const busy = useSelector(ref, (s) => s.hasTag('busy'));
  const failed = useSelector(ref, (s) => s.matches({ open: { form: 'failed' } }));
  const values = useSelector(ref, (s) => s.context.values);
  const errors = useSelector(ref, (s) => s.context.errors);
  return { open, busy, failed, values, errors };
}

/** What the dialog's view may ask. */
export function useCreateUserEvents(ref: CreateUserRef) {
  return useMemo(
    () => ({
      open: () => ref.send({ type: 'dialog.open' }),
      cancel: () => ref.send({ type: 'dialog.cancel' }),
      change: (field: NewUserField, value: string) => ref.send({ type: 'field.change', field, value }),
      submit: () => ref.send({ type: 'form.submit' }),
    }),
    [ref],
  );
}
