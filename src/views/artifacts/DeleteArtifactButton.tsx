import type { Artifact } from '../../schemas/artifact.ts';
import {
  useArtifactDeleteActor,
  useArtifactDeleteEvents,
  useArtifactDeleteState,
} from '../../machines/artifactDelete/useArtifactDelete.ts';
import { Button } from '../components/Button.tsx';
import { ConfirmDialog } from '../components/Dialog.tsx';

/** The question before deleting an artifact (reference §13). */
export const deleteQuestion = (name: string): string => `Do you want to delete ${name}?`;

/**
 * 'Delete Artifact' with its NO / YES question 'Do you want to delete <name>?', for any delete
 * flow (personal or shared artifacts): the flow says whether the question is open and busy.
 */
export function DeleteArtifactControl({
  name,
  confirming,
  busy,
  onAsk,
  onConfirm,
  onCancel,
}: {
  /** The artifact's title. */
  name: string;
  /** The question is open. */
  confirming: boolean;
  /** The deletion is under way. */
  busy: boolean;
  onAsk: () => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <>
      <Button type="button" $variant="danger" onClick={onAsk} disabled={busy}>
        Delete Artifact
      </Button>
      {confirming ? (
        <ConfirmDialog
          title="Delete Artifact"
          message={deleteQuestion(name)}
          onConfirm={onConfirm}
          onCancel={onCancel}
          busy={busy}
        />
      ) : null}
    </>
  );
}

/**
 * 'Delete Artifact' of a personal artifact. After YES the artifact is deleted and the app goes to
 * the portfolio.
 */
export function DeleteArtifactButton({
  artifactId,
  portfolioId,
  name,
  onDeleted,
}: {
  artifactId: number;
  portfolioId: number;
  /** The artifact's title. */
  name: string;
  /** Called once the artifact was deleted (the app then shows the portfolio page). */
  onDeleted?: ((artifact: Artifact) => void) | undefined;
}) {
  const ref = useArtifactDeleteActor({ artifactId, portfolioId, name }, onDeleted);
  const { confirming, busy } = useArtifactDeleteState(ref);
  const { ask, confirm, cancel } = useArtifactDeleteEvents(ref);
  return (
    <DeleteArtifactControl
      name={name}
      confirming={confirming}
      busy={busy}
      onAsk={ask}
      onConfirm={confirm}
      onCancel={cancel}
    />
  );
}
