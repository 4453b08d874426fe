import { LEAVE_QUESTION } from '../../../machines/leaveShared/leaveSharedMachine.ts';
import {
  useLeaveSharedActor,
  useLeaveSharedEvents,
  useLeaveSharedState,
} from '../../../machines/leaveShared/useLeaveShared.ts';
import { Button } from '../../components/Button.tsx';
import { ConfirmDialog } from '../../components/Dialog.tsx';

/**
 * 'Leave' with the NO / YES question of spec §6. After YES the membership ends and the app shows
 * the list of shared portfolios.
 */
export function LeaveButton({
  sharedPortfolioId,
  name,
  onLeft,
}: {
  sharedPortfolioId: number;
  /** The shared portfolio's name. */
  name: string;
  /** Called once the membership ended. */
  onLeft: (sharedPortfolioId: number) => void;
}) {
  const ref = useLeaveSharedActor({ sharedPortfolioId, name }, onLeft);
  const { confirming, busy } = useLeaveSharedState(ref);
  const { ask, confirm, cancel } = useLeaveSharedEvents(ref);
  return (
    <>
      <Button type="button" $variant="secondary" $small onClick={ask} disabled={busy}>
        Leave
      </Button>
      {confirming ? (
        <ConfirmDialog
          title="Leave Shared Portfolio"
          message={LEAVE_QUESTION}
          onConfirm={confirm}
          onCancel={cancel}
          busy={busy}
        />
      ) : null}
    </>
  );
}
