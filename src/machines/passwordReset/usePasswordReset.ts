import { createActorContext } from '../shared/actorReact.ts';
import {
  passwordResetMachine,
  type PasswordResetField,
  type PasswordResetFieldErrors,
} from './passwordResetMachine.ts';

/**
 * The password-reset actor of the forgot and reset pages; the app provides it with
 * `logic={passwordResetMachine.provide(...)}` and `options={{ input }}`.
 */
export const PasswordResetActorContext = createActorContext(passwordResetMachine);

/** The form as the views show it. */
export interface PasswordResetFormView {
  email: string;
  password: string;
  passwordConfirmation: string;
  fieldErrors: PasswordResetFieldErrors;
  /** A request is on its way (or the page is being left): the form waits. */
  busy: boolean;
}

const FIELD_ORDER: readonly PasswordResetField[] = ['email', 'password', 'passwordConfirmation'];

/** The form's values, field messages and busy flag. */
export function usePasswordResetForm(): PasswordResetFormView {
  const email = PasswordResetActorContext.useSelector((s) => s.context.email);
  const password = PasswordResetActorContext.useSelector((s) => s.context.password);
  const passwordConfirmation = PasswordResetActorContext.useSelector((s) => s.context.passwordConfirmation);
  const fieldErrors = PasswordResetActorContext.useSelector((s) => s.context.fieldErrors);
  const busy = PasswordResetActorContext.useSelector((s) => s.hasTag('busy'));
  return { email, password, passwordConfirmation, fieldErrors, busy };
}

/** Whether the link sets a first password (a new account or an invitation) rather than resetting one. */
export function useSetsFirstPassword(): boolean {
  return PasswordResetActorContext.useSelector((s) => s.context.welcome);
}

/** What the forgot and reset views may ask. */
export function usePasswordResetEvents() {
  const actor = PasswordResetActorContext.useActorRef();
  return {
    change: (field: PasswordResetField, value: string) => actor.send({ type: 'field.change', field, value }),
    /** Sends the form; answers the first field that needs fixing, if the form was refused. */
    submit: (): PasswordResetField | null => {
      actor.send({ type: 'passwordReset.submit' });
      const { fieldErrors } = actor.getSnapshot().context;
      return FIELD_ORDER.find((field) => fieldErrors[field]) ?? null;
    },
  };
}
