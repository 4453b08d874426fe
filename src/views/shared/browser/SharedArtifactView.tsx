import type { ReactNode } from 'react';
import { Link } from 'wouter';
import styled from 'styled-components';
import { artifactTitle } from '../../../machines/artifactLifecycle/artifactSelectors.ts';
import { usePreloadMoments } from '../../../machines/momentComment/useMomentComment.ts';
import type { DiscussionChange } from '../../../machines/sharedArtifactDiscussion/discussionSelectors.ts';
import {
  useDiscussionActor,
  useDiscussionArtifact,
  useDiscussionError,
  useDiscussionEvents,
  useDiscussionStatus,
  useMayBeDeleted,
} from '../../../machines/sharedArtifactDiscussion/useSharedArtifactDiscussion.ts';
import {
  useArtifactDeleteEvents,
  useArtifactDeleteState,
  type ArtifactDeleteRef,
} from '../../../machines/artifactDelete/useArtifactDelete.ts';
import type { SharedArtifactBrief } from '../../../schemas/sharedPortfolio.ts';
import { ArtifactDetails } from '../../artifacts/ArtifactDetails.tsx';
import { DeleteArtifactControl } from '../../artifacts/DeleteArtifactButton.tsx';
import { BusyMessage } from '../../components/BusyMessage.tsx';
import { ButtonLink } from '../../components/Button.tsx';
import { HistorySection, useStoredArtifact } from '../../artifacts/history/HistorySection.tsx';
import { lazyPart } from '../../components/lazyParts.tsx';
import { buildPath, paths } from '../../paths.ts';
import { ArtifactLoad } from '../../portfolios/WholeArtifact.tsx';
import { theme } from '../../theme/theme.ts';

// The videos (players, captions), reactions and comments load on first use: a bundle chunk of
// their own, so that the shared portfolio pages load without them.
const SharedDiscussion = lazyPart(
  () => import('./SharedDiscussion.tsx'),
  'SharedDiscussion',
  <BusyMessage busy message="Loading the comments and videos" />,
);

const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.lg};
  & > section + section {
    padding-top: ${theme.space.md};
    border-top: 1px solid ${theme.color.border};
  }
`;

export interface SharedArtifactViewProps {
  /** The shared artifact as its portfolio's table holds it (in brief: it is read whole with its discussion). */
  artifact: SharedArtifactBrief;
  /** Who is looking. */
  viewerId: number | null;
  /** A member or researcher: EDIT, COPY TO, delete, comments and reactions are offered. */
  mutable: boolean;
  /** The deletion of this artifact (it outlives the view). */
  deletion: ArtifactDeleteRef;
  /** Called after each comment or reaction the viewer changed, with what the portfolio's row becomes. */
  onChanged: (change: DiscussionChange) => void;
  /** Level of the title heading (default 2). */
  headingLevel?: 2 | 3;
}

function Actions({
  artifact,
  deletable,
  deletion,
  onAsk,
}: {
  artifact: Pick<SharedArtifactBrief, 'id' | 'sharedPortfolio' | 'responses'>;
  deletable: boolean;
  deletion: ArtifactDeleteRef;
  /** Asks the discussion, which decides whether the artifact may be deleted. */
  onAsk: () => void;
}) {
  const params = { id: artifact.sharedPortfolio.id, artifactId: artifact.id };
  const { confirming, busy } = useArtifactDeleteState(deletion);
  const { confirm, cancel } = useArtifactDeleteEvents(deletion);
  return (
    <>
      <Link href={buildPath(paths.sharedArtifactEdit, params)} asChild>
        <ButtonLink>EDIT</ButtonLink>
      </Link>
      <Link href={buildPath(paths.sharedArtifactCopy, params)} asChild>
        <ButtonLink $variant="secondary">COPY TO</ButtonLink>
      </Link>
      {deletable || confirming ? (
        <DeleteArtifactControl
          name={artifactTitle(artifact.responses)}
          confirming={confirming}
          busy={busy}
          onAsk={onAsk}
          onConfirm={confirm}
          onCancel={cancel}
        />
      ) : null}
    </>
  );
}

/**
 * A shared artifact: its details with Grade Levels and the team questions, then its reactions
 * and comments. Its discussion reads it whole with them (`GET /shared-artifacts/{id}`); until then
 * a placeholder holds its place. Members and researchers get EDIT, COPY TO and — while the
 * discussion says it may be deleted — Delete Artifact. Its history comes before the discussion
 * (Restore for those who may edit it).
 */
export function SharedArtifactView({
  artifact,
  viewerId,
  mutable,
  deletion,
  onChanged,
  headingLevel = 2,
}: SharedArtifactViewProps) {
  usePreloadMoments(true);
  const { ask } = useArtifactDeleteEvents(deletion);
  const discussion = useDiscussionActor(
    { artifactId: artifact.id, viewerId, mutable },
    { onChanged, onDeleteAsked: ask },
  );
  const deletable = useMayBeDeleted(discussion);
  const { askDelete, retry } = useDiscussionEvents(discussion);
  const whole = useDiscussionArtifact(discussion);
  const status = useDiscussionStatus(discussion);
  const error = useDiscussionError(discussion);
  return (
    <ArtifactLoad
      status={whole ? 'ready' : status === 'loadFailed' ? 'failed' : 'loading'}
      error={error}
      onRetry={retry}
    >
      {() => (
        <WholeSharedArtifact
          artifact={whole!}
          headingLevel={headingLevel}
          discussion={discussion}
          mutable={mutable}
          actions={
            mutable ? <Actions artifact={artifact} deletable={deletable} deletion={deletion} onAsk={askDelete} /> : null
          }
        />
      )}
    </ArtifactLoad>
  );
}

/** The artifact once read whole: after a restore from its history, the version that restore stored. */
function WholeSharedArtifact({
  artifact: read,
  headingLevel,
  discussion,
  mutable,
  actions,
}: {
  artifact: NonNullable<ReturnType<typeof useDiscussionArtifact>>;
  headingLevel: 2 | 3;
  discussion: ReturnType<typeof useDiscussionActor>;
  mutable: boolean;
  actions: ReactNode;
}) {
  const [artifact, showStored] = useStoredArtifact(read);
  return (
    <Stack>
      <ArtifactDetails artifact={artifact} showGradeLevels headingLevel={headingLevel} actions={actions} />
      <HistorySection
        key={artifact.id}
        holder="sharedArtifact"
        artifactId={artifact.id}
        updatedAt={artifact.updated_at}
        structure={artifact.structure}
        canRestore={artifact.abilities?.edit ?? false}
        onChanged={showStored}
        headingLevel={headingLevel === 2 ? 3 : 4}
      />
      <SharedDiscussion
        artifactId={artifact.id}
        sharedPortfolioId={artifact.sharedPortfolio.id}
        videos={artifact.videos}
        discussion={discussion}
        mutable={mutable}
      />
    </Stack>
  );
}
