import { useSelector } from '../shared/actorReact.ts';
import { createContext, useContext, useEffect, useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { typedTextGuardMachine } from './typedTextGuardMachine.ts';

export type TypedTextGuardRef = ActorRefFrom<typeof typedTextGuardMachine>;

/** The app's typed-text guard (one for the whole app; `null`: nothing is guarded, e.g. a component alone in a test). */
export const TypedTextGuardContext = createContext<TypedTextGuardRef | null>(null);

/**
 * Tells the guard whether this box holds typed text that is not saved: while it does, leaving the
 * page asks first.
 */
export function useGuardedText(unsaved: boolean): void {
  const box = useId();
  const actor = useContext(TypedTextGuardContext);
  useEffect(() => {
    actor?.send(unsaved ? { type: 'box.typed', box } : { type: 'box.cleared', box });
  }, [actor, box, unsaved]);
  useEffect(() => () => actor?.send({ type: 'box.cleared', box }), [actor, box]);
}

/** Whether the question 'Leave this page?' about typed text is open. */
export const useTypedTextLeaveQuestion = (actor: TypedTextGuardRef): boolean =>
  useSelector(actor, (s) => s.matches('confirmingLeave'));

/** What the question may answer. */
export const typedTextLeaveEvents = (actor: TypedTextGuardRef) => ({
  stay: () => actor.send({ type: 'leave.stay' }),
  leave: () => actor.send({ type: 'leave.confirm' }),
});

/**
 * Runs a move to another page, artifact or portfolio through the app's leave guards (the app
 * provides them; alone, a move happens at once). For moves a machine makes before it changes the
 * address, e.g. picking another row: the guards ask before anything on screen changes.
 */
export const GuardedMoveContext = createContext<(move: () => void) => void>((move) => move());

/** Wraps intents that leave what is on screen so that they pass the leave guards first. */
export function useGuardedMove(): (move: () => void) => void {
  return useContext(GuardedMoveContext);
}
