import {
  OVERWRITE_QUESTION,
  type ConflictingSave,
  type SharedArtifactSaveRef,
} from '../../../machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import {
  useOverwriteEvents,
  useOverwriteQuestion,
} from '../../../machines/sharedArtifactSave/useSharedArtifactSave.ts';
import { useCurrentUser } from '../../../machines/session/useSession.ts';
import { formatDateTime } from '../../../schemas/formatting.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';

/**
 * Who saved in between and when, as every date is written: 'Ana Lopez saved this artifact on
 * November 21, 2026 9:05am, after you opened it.' (`You` for the viewer's own save elsewhere,
 * `Someone else` when the server does not know who).
 */
export function conflictSentence(save: ConflictingSave, viewerId: number | null): string {
  const who = save.by === null ? 'Someone else' : save.by.id === viewerId ? 'You' : save.by.username;
  return `${who} saved this artifact on ${formatDateTime(save.at)}, after you opened it.`;
}

/**
 * 'Edit Conflict' (reference §5.1): someone else saved the shared artifact since it was loaded.
 * Who saved and when (the server's message when it does not say) and 'Are you sure you want to
 * overwrite their changes?', NO / YES; YES saves over their version, NO (or Escape) goes back to
 * the answers.
 */
export function EditConflictDialog({
  saveRef,
}: {
  /** The running save of the shared artifact. */ saveRef: SharedArtifactSaveRef | undefined;
}) {
  const question = useOverwriteQuestion(saveRef);
  const viewerId = useCurrentUser()?.id ?? null;
  const { confirm, cancel } = useOverwriteEvents(saveRef);
  if (question === null) return null;
  const why = question.save ? conflictSentence(question.save, viewerId) : question.message;
  return (
    <ConfirmDialog
      title="Edit Conflict"
      message={`${why} ${OVERWRITE_QUESTION}`.trim()}
      onConfirm={confirm}
      onCancel={cancel}
    />
  );
}
