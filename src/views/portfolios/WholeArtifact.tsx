import { useLayoutEffect, useRef, type ReactNode } from 'react';
import styled from 'styled-components';
import { useWholeArtifact } from '../../machines/artifactDetails/useArtifactDetails.ts';
import { isWholeArtifact } from '../../machines/portfolioBrowser/selectors.ts';
import type { Artifact } from '../../schemas/artifact.ts';
import type { ArtifactBrief } from '../../schemas/portfolio.ts';
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

function FetchedArtifact({
  artifactId,
  children,
}: {
  artifactId: number;
  children: (artifact: Artifact) => ReactNode;
}) {
  const { status, artifact, error, retry } = useWholeArtifact(artifactId);
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
      {status === 'ready' && artifact ? (
        children(artifact)
      ) : status === 'missing' ? (
        <Note role="status">{NOT_IN_PORTFOLIO}</Note>
      ) : status === 'failed' ? (
        <Problem title="The artifact could not be loaded" message={error?.message} onRetry={retry} />
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
    <FetchedArtifact key={`${brief.id}@${brief.updated_at}`} artifactId={brief.id}>
      {children}
    </FetchedArtifact>
  );
}
