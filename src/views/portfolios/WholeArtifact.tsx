import type { ReactNode } from 'react';
import styled from 'styled-components';
import { useWholeArtifact } from '../../machines/artifactDetails/useArtifactDetails.ts';
import { isWholeArtifact } from '../../machines/portfolioBrowser/selectors.ts';
import type { Artifact } from '../../schemas/artifact.ts';
import type { ArtifactBrief } from '../../schemas/portfolio.ts';
import { Spinner } from '../components/Spinner.tsx';
import { NOT_IN_PORTFOLIO, Problem } from './Notices.tsx';

const Loading = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  min-height: 120px;
  color: ${({ theme }) => theme.color.textMuted};
`;

const Note = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.color.textMuted};
`;

function FetchedArtifact({ artifactId, children }: { artifactId: number; children: (artifact: Artifact) => ReactNode }) {
  const { status, artifact, error, retry } = useWholeArtifact(artifactId);
  if (status === 'ready' && artifact) return <>{children(artifact)}</>;
  if (status === 'missing') return <Note role="status">{NOT_IN_PORTFOLIO}</Note>;
  if (status === 'failed') return <Problem title="The artifact could not be loaded" message={error?.message} onRetry={retry} />;
  return (
    <Loading aria-busy="true">
      <Spinner label="Loading artifact" />
    </Loading>
  );
}

/**
 * A personal artifact of the table shown whole: the table holds it in brief, so it is read when
 * opened (again when the table holds a newer version); one already whole is shown at once.
 */
export function WholeArtifact({ brief, children }: { brief: ArtifactBrief; children: (artifact: Artifact) => ReactNode }) {
  if (isWholeArtifact(brief)) return <>{children(brief)}</>;
  return (
    <FetchedArtifact key={`${brief.id}@${brief.updated_at}`} artifactId={brief.id}>
      {children}
    </FetchedArtifact>
  );
}
