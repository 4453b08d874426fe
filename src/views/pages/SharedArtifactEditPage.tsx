import { hasActivity, type EditableArtifact } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import { SHARED_ARTIFACT_NOT_FOUND } from '../../machines/artifactLifecycle/artifactLifecycleMachine.ts';
import {
  useArtifactEditEvents,
  useArtifactEditStatus,
  useEditedArtifact,
  useFormBusy,
  useNotFoundMessage,
  useSharedSaveRef,
} from '../../machines/artifactLifecycle/useArtifactLifecycle.ts';
import { useMergeConflict } from '../../machines/sharedArtifactSave/useSharedArtifactSave.ts';
import { ArtifactEditForm, FormNote } from '../artifacts/edit/ArtifactEditForm.tsx';
import { EditPageLoadFailed, EditPageProblem } from '../artifacts/edit/EditPageProblem.tsx';
import { MergeConflictDialog } from '../artifacts/edit/MergeConflictDialog.tsx';
import { CoreMark } from '../artifacts/QuestionField.tsx';
import { BusyButton } from '../components/BusyButton.tsx';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { paths } from '../paths.ts';

const PAGE_TITLE = 'Edit Shared Artifact';

function SharedArtifactForm({ artifact }: { artifact: EditableArtifact }) {
  const status = useArtifactEditStatus();
  const busy = useFormBusy();
  const { save } = useArtifactEditEvents();
  const saveRef = useSharedSaveRef();
  // While the conflict dialog is open nothing is being saved.
  const asking = useMergeConflict(saveRef) !== null;
  return (
    <ArtifactEditForm
      artifact={artifact}
      pageTitle={PAGE_TITLE}
      note={
        <FormNote>
          Questions marked <CoreMark />
          <span className="visually-hidden">with an asterisk</span> must be answered to save the artifact.
        </FormNote>
      }
      buttons={
        <BusyButton
          type="submit"
          busy={(status === 'saving' && !asking) || status === 'saved'}
          busyLabel="Saving…"
          disabled={busy}
        >
          Save
        </BusyButton>
      }
      onSubmit={save}
      // The server refuses to delete a shared artifact with comments or reactions.
      deletable={!hasActivity(artifact)}
    >
      <MergeConflictDialog saveRef={saveRef} questions={artifact.structure} />
    </ArtifactEditForm>
  );
}

/**
 * The edit page of a shared artifact (spec §2 Edit shared artifact): the personal artifact form
 * with the team questions under 'Team questions for shared portfolio'; Cancel and Save (shared
 * artifacts are complete, so the core questions are required); Delete Artifact only while the
 * artifact has no comments and no reactions. Saving asks the gate check first; when someone else
 * saved in the meantime their changes are merged with these, and answers both changed open the
 * Edit Conflict dialog.
 */
export function SharedArtifactEditPage() {
  const status = useArtifactEditStatus();
  const artifact = useEditedArtifact();
  const notFound = useNotFoundMessage();
  if (status === 'loading') return <PageSkeleton label="Loading artifact" />;
  if (status === 'loadFailed') return <EditPageLoadFailed pageTitle={PAGE_TITLE} />;
  if (status === 'denied' || status === 'notFound' || !artifact) {
    return (
      <EditPageProblem
        pageTitle={PAGE_TITLE}
        message={notFound ?? SHARED_ARTIFACT_NOT_FOUND}
        backPath={paths.sharedPortfolios}
        backLabel="Back to Shared Portfolios"
      />
    );
  }
  return <SharedArtifactForm artifact={artifact} />;
}
