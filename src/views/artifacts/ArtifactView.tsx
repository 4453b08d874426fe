import { Link } from 'wouter';
import type { Artifact } from '../../schemas/artifact.ts';
import { artifactTitle } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import { BusyMessage } from '../components/BusyMessage.tsx';
import { lazyPart } from '../components/lazyParts.tsx';
import { ButtonLink } from '../components/Button.tsx';
import { buildPath, paths } from '../paths.ts';
import { useArtifactSharesAvailable } from '../../machines/artifactShares/useArtifactShares.ts';
import { useMomentsAvailable, usePreloadMoments } from '../../machines/momentComment/useMomentComment.ts';
import { ArtifactDetails } from './ArtifactDetails.tsx';
import { ArtifactShares } from './ArtifactShares.tsx';
import { DeleteArtifactButton } from './DeleteArtifactButton.tsx';
import { HistorySection, useStoredArtifact } from './history/HistorySection.tsx';

// The players, notes and caption editor load on first use: a bundle chunk of their own, so that
// the portfolio pages load without them.
const PersonalVideoMoments = lazyPart(
  () => import('../video/PersonalVideoMoments.tsx'),
  'PersonalVideoMoments',
  <BusyMessage busy message="Loading the videos and notes" />,
);

export interface ArtifactViewProps {
  /** The personal artifact to show. */
  artifact: Artifact;
  /** The portfolio it belongs to (for links and the page after a deletion). */
  portfolioId: number;
  /** No actions at all (researchers browsing teacher portfolios). */
  readOnly: boolean;
  /** Called once the artifact was deleted (the app then shows the portfolio page). */
  onDeleted?: (artifact: Artifact) => void;
  /** Level of the title heading (default 2). */
  headingLevel?: 2 | 3;
}

function Actions({ artifact, portfolioId, onDeleted }: Omit<ArtifactViewProps, 'readOnly' | 'headingLevel'>) {
  const params = { id: portfolioId, artifactId: artifact.id };
  if (artifact.parkingLot) {
    return (
      <Link href={buildPath(paths.myArtifactEdit, params)} asChild>
        <ButtonLink>Complete Artifact</ButtonLink>
      </Link>
    );
  }
  return (
    <>
      <Link href={buildPath(paths.myArtifactEdit, params)} asChild>
        <ButtonLink>EDIT</ButtonLink>
      </Link>
      <Link href={buildPath(paths.myArtifactCopy, params)} asChild>
        <ButtonLink $variant="secondary">COPY TO</ButtonLink>
      </Link>
      <DeleteArtifactButton
        key={artifact.id}
        artifactId={artifact.id}
        portfolioId={portfolioId}
        name={artifactTitle(artifact.responses)}
        onDeleted={onDeleted}
      />
    </>
  );
}

/**
 * A personal artifact with what its owner may do: a parking-lot artifact offers Complete
 * Artifact; a completed one EDIT, COPY TO and Delete Artifact; read-only viewers get no actions.
 * Needs `ArtifactActionsProvider` above it unless `readOnly`. Under `ArtifactSharesContext` a completed
 * artifact also shows where it was shared ("Shared to"). Its history comes last (Restore for its owner).
 */
export function ArtifactView({
  artifact: given,
  portfolioId,
  readOnly,
  onDeleted,
  headingLevel = 2,
}: ArtifactViewProps) {
  // After a restore from the history, the version it stored.
  const [artifact, showStored] = useStoredArtifact(given);
  const showShares = useArtifactSharesAvailable() && !artifact.parkingLot;
  // The owner's private notes at moments of the videos (where the app supplies video moments).
  const showNotes = useMomentsAvailable() && !readOnly && artifact.videos.length > 0;
  usePreloadMoments(showNotes);
  return (
    <>
      <ArtifactDetails
        artifact={artifact}
        headingLevel={headingLevel}
        actions={
          readOnly ? null : (
            <Actions artifact={artifact} portfolioId={portfolioId} {...(onDeleted ? { onDeleted } : {})} />
          )
        }
      />
      {showNotes ? (
        <PersonalVideoMoments
          artifactId={artifact.id}
          videos={artifact.videos}
          headingLevel={headingLevel === 2 ? 3 : 4}
        />
      ) : null}
      {showShares ? (
        <ArtifactShares
          key={`shares-${artifact.id}`}
          artifactId={artifact.id}
          headingLevel={headingLevel === 2 ? 3 : 4}
        />
      ) : null}
      <HistorySection
        key={`history-${artifact.id}`}
        holder="artifact"
        artifactId={artifact.id}
        updatedAt={artifact.updated_at}
        structure={artifact.structure}
        canRestore={!readOnly && (artifact.abilities?.edit ?? true)}
        onChanged={showStored}
        headingLevel={headingLevel === 2 ? 3 : 4}
      />
    </>
  );
}
