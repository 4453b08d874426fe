import { useLayoutEffect, useRef, type ReactNode } from 'react';
import styled from 'styled-components';
import { isSharedWhole, type WholeArtifactData } from '../../machines/artifactDetails/artifactDetailsMachine.ts';
import { useWholeArtifact } from '../../machines/artifactDetails/useArtifactDetails.ts';
import { isWholeArtifact } from '../../machines/portfolioBrowser/selectors.ts';
import type { Artifact } from '../../schemas/artifact.ts';
import type { ArtifactBrief } from '../../schemas/portfolio.ts';
import type { SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import type { SharedArtifactBrief } from '../../schemas/sharedPortfolio.ts';
import { Spinner } from '../components/Spinner.tsx';
import { focusHeading } from './focusHeading.ts';
import { NOT_IN_PORTFOLIO, Problem } from './Notices.tsx';
import { theme } from '../theme/theme.ts';

const Loading = styled.div`
  display: flex;
  align-items: center;
  gap: ${theme.space.sm};
  min-height: 120px;
  color: ${theme.color.textMuted};
`;

const Note = styled.p`
  margin: 0;
  color: ${theme.color.textMuted};
`;

/** Holds what it shows in the layout of its parent. */
const Contents = styled.div`
  display: contents;
`;

/** Where an artifact read when opened is: arriving, there, not found, or not read. */
export type ArtifactLoadStatus = 'loading' | 'ready' | 'missing' | 'failed';

/**
 * The frame of an artifact read when it is opened: a placeholder while it loads (the focus sent to
 * it, a phone's choice, goes on to the artifact's title once it is there), the artifact once read,
 * a note when it is gone, or why it could not be read with Try again.
 */
export function ArtifactLoad({
  status,
  error,
  onRetry,
  children,
}: {
  status: ArtifactLoadStatus;
  /** Why it could not be read. */
  error: { message: string } | null;
  onRetry: () => void;
  /** The artifact, drawn once `status` is ready. */
  children: () => ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  // The focus sent to the artifact while it loads (a phone's choice) goes on to its title.
  const focusWaiting = useRef(false);
  useLayoutEffect(() => {
    if (status !== 'loading' && focusWaiting.current) {
      focusWaiting.current = false;
      focusHeading(box.current);
    }
  }, [status]);
  return (
    <Contents ref={box}>
      {status === 'ready' ? (
        children()
      ) : status === 'missing' ? (
        <Note role="status">{NOT_IN_PORTFOLIO}</Note>
      ) : status === 'failed' ? (
        <Problem title="The artifact could not be loaded" message={error?.message} onRetry={onRetry} />
      ) : (
        <Loading
          aria-busy="true"
          data-focus-target
          tabIndex={-1}
          onFocus={() => (focusWaiting.current = true)}
          // Only a move elsewhere (not this placeholder leaving the page) cancels it.
          onBlur={(event) => (focusWaiting.current = event.relatedTarget === null && focusWaiting.current)}
        >
          <Spinner label="Loading artifact" />
        </Loading>
      )}
    </Contents>
  );
}

function FetchedArtifact<A extends WholeArtifactData>({
  artifactId,
  accepts,
  children,
}: {
  artifactId: number;
  /** Whether what was read is the kind of artifact the caller draws. */
  accepts: (artifact: WholeArtifactData) => artifact is A;
  children: (artifact: A) => ReactNode;
}) {
  const { status, artifact, error, retry } = useWholeArtifact(artifactId);
  const ready = status === 'ready' && artifact !== null && accepts(artifact);
  return (
    <ArtifactLoad status={status === 'ready' && !ready ? 'missing' : status} error={error} onRetry={retry}>
      {() => children(artifact as A)}
    </ArtifactLoad>
  );
}

const isPersonalWhole = (artifact: WholeArtifactData): artifact is Artifact => !isSharedWhole(artifact);

/**
 * A personal artifact of the table shown whole: the table holds it in brief, so it is read when
 * opened (again when the table holds a newer version); one already whole is shown at once.
 */
export function WholeArtifact({
  brief,
  children,
}: {
  brief: ArtifactBrief;
  children: (artifact: Artifact) => ReactNode;
}) {
  if (isWholeArtifact(brief)) return <>{children(brief)}</>;
  return (
    <FetchedArtifact key={`${brief.id}@${brief.updated_at}`} artifactId={brief.id} accepts={isPersonalWhole}>
      {children}
    </FetchedArtifact>
  );
}

/**
 * A shared artifact of the table shown whole (a side of the comparison): read when shown with
 * the reading the shared portfolios' pages provide (`GET /shared-artifacts/{id}`), again when the
 * table holds a newer version.
 */
export function WholeSharedArtifact({
  brief,
  children,
}: {
  brief: SharedArtifactBrief;
  children: (artifact: SharedArtifactDetail) => ReactNode;
}) {
  return (
    <FetchedArtifact key={`${brief.id}@${brief.updated_at}`} artifactId={brief.id} accepts={isSharedWhole}>
      {children}
    </FetchedArtifact>
  );
}
