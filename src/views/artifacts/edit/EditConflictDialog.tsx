import { OVERWRITE_QUESTION, type SharedArtifactSaveRef } from '../../../machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import { useOverwriteEvents, useOverwriteQuestion } from '../../../machines/sharedArtifactSave/useSharedArtifactSave.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';

/**
 * 'Edit Conflict' (reference §5.1): someone else saved the shared artifact since it was loaded.
 * The server's message and 'Are you sure you want to overwrite their changes?', NO / YES; YES
 * saves over their version, NO (or Escape) goes back to the answers.
 */
export function EditConflictDialog({ saveRef }: { /** The running save of the shared artifact. */ saveRef: SharedArtifactSaveRef | undefined }) {
  const message = useOverwriteQuestion(saveRef);
  const { confirm, cancel } = useOverwriteEvents(saveRef);
  if (message === null) return null;
  return <ConfirmDialog title="Edit Conflict" message={`${message} ${OVERWRITE_QUESTION}`.trim()} onConfirm={confirm} onCancel={cancel} />;
}
