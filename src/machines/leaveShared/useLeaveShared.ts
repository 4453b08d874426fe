import { useActorRef } from '@xstate/react';
import { useSelector } from '../shared/actorReact.ts';
import { createContext, useContext, useEffect, useMemo } from 'react';
import type { ActorRefFrom, InspectionEvent } from 'xstate';
import type { leaveSharedMachine, LeaveSharedInput } from './leaveSharedMachine.ts';

export type LeaveSharedRef = ActorRefFrom<typeof leaveSharedMachine>;

/** The leave logic with the app's navigation and messages. */
export interface LeaveSharedSetup {
  logic: typeof leaveSharedMachine;
  /** An inspector for every actor made from it (tests). */
  inspect?: (event: InspectionEvent) => void;
}

/** Supplies the leave logic to the shared portfolio summary below it. */
export const LeaveSharedContext = createContext<LeaveSharedSetup | null>(null);

/** One leave actor for one shared portfolio, living as long as the calling component; `onLeft` hears of the end. */
export function useLeaveSharedActor(
  input: LeaveSharedInput,
  onLeft?: (sharedPortfolioId: number) => void,
): LeaveSharedRef {
  const setup = useContext(LeaveSharedContext);
  if (!setup) throw new Error('Leave needs LeaveSharedContext (the app wiring of shared portfolios) above it.');
  const ref = useActorRef(setup.logic, { input, ...(setup.inspect ? { inspect: setup.inspect } : {}) });
  useEffect(() => {
    if (!onLeft) return undefined;
    const subscription = ref.on('shared.left', (event) => onLeft(event.sharedPortfolioId));
    return () => subscription.unsubscribe();
  }, [ref, onLeft]);
  return ref;
}

/** Where leaving stands: the question is open (or its answer on the way), a request runs. */
export function useLeaveSharedState(ref: LeaveSharedRef): { confirming: boolean; busy: boolean } {
  const confirming = useSelector(ref, (s) => s.matches('confirming') || s.matches('leaving'));
  const busy = useSelector(ref, (s) => s.hasTag('busy'));
  return { confirming, busy };
}

/** What the Leave button and its question may ask. */
export function useLeaveSharedEvents(ref: LeaveSharedRef) {
  return useMemo(
    () => ({
      ask: () => ref.send({ type: 'leave.ask' }),
      confirm: () => ref.send({ type: 'leave.confirm' }),
      cancel: () => ref.send({ type: 'leave.cancel' }),
    }),
    [ref],
  );
}
