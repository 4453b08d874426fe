import { createActorContext } from '../shared/actorReact.ts';
import { appPasswordMachine, type AppPasswordField } from './appPasswordMachine.ts';

/** The app-password form's actor. */
export const AppPasswordActorContext = createActorContext(appPasswordMachine);

const FIELD_ORDER: readonly AppPasswordField[] = ['password', 'passwordConfirmation', 'currentPassword'];

/** The form as the view shows it. */
export function useAppPasswordForm() {
  const context = AppPasswordActorContext.useSelector((s) => s.context);
  const busy = AppPasswordActorContext.useSelector((s) => s.hasTag('busy'));
  return { ...context, busy };
}

/** What the view may ask. */
export function useAppPasswordEvents() {
  const actor = AppPasswordActorContext.useActorRef();
  return {
    change: (field: AppPasswordField, value: string) => actor.send({ type: 'field.change', field, value }),
    /** Sends the form; answers the first field that needs fixing, if it was refused. */
    submit: (): AppPasswordField | null => {
      actor.send({ type: 'submit' });
      const { fieldErrors } = actor.getSnapshot().context;
      return FIELD_ORDER.find((f) => fieldErrors[f]) ?? null;
    },
  };
}
