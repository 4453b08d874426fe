import { useActorRef } from '@xstate/react';
import type { ReactNode } from 'react';
import type { InspectionEvent } from 'xstate';
import { hasTypedText, typedTextGuardMachine } from '../../machines/typedTextGuard/typedTextGuardMachine.ts';
import {
  GuardedMoveContext,
  TypedTextGuardContext,
  typedTextLeaveEvents,
  useTypedTextLeaveQuestion,
  type TypedTextGuardRef,
} from '../../machines/typedTextGuard/useTypedTextGuard.ts';
import { LeaveConfirmDialog } from '../../views/components/Dialog.tsx';
import { allowLeave, attemptNavigation, stayHere } from './leaveGuard.ts';
import { useLeaveGuard } from './useLeaveGuard.ts';

const logic = typedTextGuardMachine.provide({
  actions: { allowLeave: () => allowLeave(), stayHere: () => stayHere() },
});

function LeaveQuestion({ actor }: { actor: TypedTextGuardRef }) {
  const open = useTypedTextLeaveQuestion(actor);
  if (!open) return null;
  const { stay, leave } = typedTextLeaveEvents(actor);
  return <LeaveConfirmDialog onStay={stay} onLeave={leave} />;
}

/**
 * Every box with typed text below it (comments, moment comments, captions…) is guarded: leaving
 * the page by a link, another row, Back or Forward asks first, and reloading or closing the tab
 * asks the browser's question.
 */
export function TypedTextGuardProvider({
  children,
  inspect,
}: {
  children: ReactNode;
  /** An inspector of the guard's actor (tests). */ inspect?: (event: InspectionEvent) => void;
}) {
  const actor = useActorRef(logic, inspect ? { inspect } : {});
  useLeaveGuard(actor, hasTypedText);
  return (
    <GuardedMoveContext.Provider value={attemptNavigation}>
      <TypedTextGuardContext.Provider value={actor}>
        {children}
        <LeaveQuestion actor={actor} />
      </TypedTextGuardContext.Provider>
    </GuardedMoveContext.Provider>
  );
}
