import type { EditableArtifact } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import {
  useArtifactEditEvents,
  useArtifactEditStatus,
  useEditedArtifact,
  useFormBusy,
  useNotFoundMessage,
  useSaveIntent,
} from '../../machines/artifactLifecycle/useArtifactLifecycle.ts';
import { ArtifactEditForm, FormNote } from '../artifacts/edit/ArtifactEditForm.tsx';
import { EditPageLoadFailed, EditPageProblem } from '../artifacts/edit/EditPageProblem.tsx';
import { CoreMark } from '../artifacts/QuestionField.tsx';
import { BusyButton } from '../components/BusyButton.tsx';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { paths } from '../paths.ts';

/** What a read-only user (a researcher) sees instead of the form. */
export const READ_ONLY_MESSAGE = 'Researchers can view teacher portfolios but cannot edit artifacts.';

const PAGE_TITLE = 'Edit Artifact';

/** 'Save to Parking Lot' and 'Submit to Portfolio', or 'Save'; the submit button is the one Enter uses. */
function SaveButtons({ artifact }: { artifact: EditableArtifact }) {
  const status = useArtifactEditStatus();
  const intent = useSaveIntent();
  const busy = useFormBusy();
  const { submit } = useArtifactEditEvents();
  const running = (which: string) => (status === 'saving' || status === 'saved') && intent === which;
  if (artifact.parkingLot) {
    return (
      <>
        <BusyButton
          type="submit"
          $variant="secondary"
          busy={running('saveToLot')}
          busyLabel="Saving to the parking lot…"
          disabled={busy}
        >
          Save to Parking Lot
        </BusyButton>
        <BusyButton
          type="button"
          busy={running('submit')}
          busyLabel="Submitting to the portfolio…"
          disabled={busy}
          onClick={submit}
        >
          Submit to Portfolio
        </BusyButton>
      </>
    );
  }
  return (
    <BusyButton type="submit" busy={running('save')} busyLabel="Saving…" disabled={busy}>
      Save
    </BusyButton>
  );
}

function PersonalArtifactForm({ artifact }: { artifact: EditableArtifact }) {
  const { saveToLot, save } = useArtifactEditEvents();
  return (
    <ArtifactEditForm
      artifact={artifact}
      pageTitle={PAGE_TITLE}
      note={
        <FormNote>
          Questions marked <CoreMark />
          <span className="visually-hidden">with an asterisk</span> must be answered to submit the artifact to the
          portfolio; the parking lot keeps unfinished work.
        </FormNote>
      }
      buttons={<SaveButtons artifact={artifact} />}
      // The default button: Save, or Save to Parking Lot (never submits by accident).
      onSubmit={artifact.parkingLot ? saveToLot : save}
      deletable
    />
  );
}

/**
 * The edit page of a personal artifact (spec §2 Edit artifact): the title, dates, uploads, unit
 * timing and day, then the other questions; Cancel, Save to Parking Lot and Submit to Portfolio
 * (parking lot) or Save (completed), and Delete Artifact.
 */
export function ArtifactEditPage() {
  const status = useArtifactEditStatus();
  const artifact = useEditedArtifact();
  const notFound = useNotFoundMessage();
  if (status === 'loading') return <PageSkeleton label="Loading artifact" />;
  if (status === 'loadFailed') return <EditPageLoadFailed pageTitle={PAGE_TITLE} />;
  if (status === 'denied') {
    return (
      <EditPageProblem
        pageTitle={PAGE_TITLE}
        message={READ_ONLY_MESSAGE}
        backPath={paths.teacherPortfolios}
        backLabel="Back to Teacher Portfolios"
      />
    );
  }
  if (status === 'notFound' || !artifact) {
    return (
      <EditPageProblem
        pageTitle={PAGE_TITLE}
        message={notFound ?? 'Artifact not found.'}
        backPath={paths.myPortfolios}
        backLabel="Back to My Portfolios"
      />
    );
  }
  return <PersonalArtifactForm artifact={artifact} />;
}
