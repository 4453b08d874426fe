import { useActorRef } from '@xstate/react';
import { useEffect, useState, type ReactNode } from 'react';
import type { InspectionEvent } from 'xstate';
import { useSelector } from '../../machines/shared/actorReact.ts';
import { hasTypedText, typedTextGuardMachine } from '../../machines/typedTextGuard/typedTextGuardMachine.ts';
import {
  GuardedMoveContext,
  TypedTextGuardContext,
  typedTextLeaveEvents,
  useTypedTextLeaveQuestion,
  type TypedTextGuardRef,
} from '../../machines/typedTextGuard/useTypedTextGuard.ts';
import { allowLeave, attemptNavigation, stayHere } from './leaveGuard.ts';
import { useLeaveGuard } from './useLeaveGuard.ts';
import type { LeaveConfirmDialog } from '../../views/components/Dialog.tsx';

const logic = typedTextGuardMachine.provide({
  actions: { allowLeave: () => allowLeave(), stayHere: () => stayHere() },
});

// The question's dialog loads once there is typed text to guard, long before anyone can leave it:
// the pages without such boxes (the sign-in page) never load it.
type LeaveDialog = typeof LeaveConfirmDialog;
let leaveDialog: LeaveDialog | null = null;
const loadLeaveDialog = async (): Promise<LeaveDialog> =>
  (leaveDialog ??= (await import('../../views/components/Dialog.tsx')).LeaveConfirmDialog);

function LeaveQuestion({ actor }: { actor: TypedTextGuardRef }) {
  const open = useTypedTextLeaveQuestion(actor);
  const guarding = useSelector(actor, hasTypedText);
  const [Dialog, setDialog] = useState<LeaveDialog | null>(() => leaveDialog);
  useEffect(() => {
    if (Dialog || !(guarding || open)) return undefined;
    let current = true;
    loadLeaveDialog().then(
      (loaded) => current && setDialog(() => loaded),
      // Not loaded (offline): the question cannot be asked, so the page stays, with its typed text.
      () => current && open && typedTextLeaveEvents(actor).stay(),
    );
    return () => {
      current = false;
    };
  }, [Dialog, actor, guarding, open]);
  if (!open || !Dialog) return null;
  const { stay, leave } = typedTextLeaveEvents(actor);
  return <Dialog onStay={stay} onLeave={leave} />;
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
