import { createActorContext } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { Invitation } from '../../schemas/invitation.ts';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import type { UiError } from '../../services/errors.ts';
import { invitationMachine } from './invitationMachine.ts';

/** The Invitation page's actor; the app provides its logic and the invitation id as input. */
export const InvitationActorContext = createActorContext(invitationMachine);

export type InvitationStatus = 'loading' | 'loadFailed' | 'notFound' | 'pending' | 'answered';

/** Where the page stands (`answered`: accepted or deleted, on the way to the dashboard). */
export function useInvitationStatus(): InvitationStatus {
  return InvitationActorContext.useSelector((s) => {
    if (s.matches('loadFailed')) return 'loadFailed';
    if (s.matches('notFound')) return 'notFound';
    if (s.matches('accepted') || s.matches('deleted') || s.matches('finished')) return 'answered';
    if (s.matches('starting') || s.matches('loading')) return 'loading';
    return 'pending';
  });
}

/** The invitation, once loaded. */
export const useInvitation = (): Invitation | null => InvitationActorContext.useSelector((s) => s.context.invitation);

/** The shared portfolio with its artifacts, once loaded. */
export const useInvitationPortfolio = (): SharedPortfolio | null =>
  InvitationActorContext.useSelector((s) => s.context.sharedPortfolio);

/** Why loading failed. */
export const useInvitationError = (): UiError | null => InvitationActorContext.useSelector((s) => s.context.error);

/** Whether an answer is being sent. */
export const useInvitationBusy = (): boolean => InvitationActorContext.useSelector((s) => s.hasTag('busy'));

/** Whether the delete question is open (or its answer is being sent). */
export const useConfirmingDelete = (): boolean =>
  InvitationActorContext.useSelector((s) => s.matches('confirmingDelete') || s.matches('deleting'));

/** Whether the page still takes an answer. */
export const useCanAnswer = (): boolean =>
  InvitationActorContext.useSelector((s) => s.can({ type: 'invitation.accept' }));

/** What the page may ask. */
export function useInvitationEvents() {
  const actor = InvitationActorContext.useActorRef();
  return useMemo(
    () => ({
      accept: () => actor.send({ type: 'invitation.accept' }),
      askDelete: () => actor.send({ type: 'invitation.delete' }),
      confirmDelete: () => actor.send({ type: 'delete.confirm' }),
      cancelDelete: () => actor.send({ type: 'delete.cancel' }),
      retry: () => actor.send({ type: 'retry' }),
    }),
    [actor],
  );
}
