import { useCallback, useMemo, useState } from 'react';
import styled from 'styled-components';
import { artifactTitle } from '../../../machines/artifactLifecycle/artifactSelectors.ts';
import { useArtifactDeleteActor } from '../../../machines/artifactDelete/useArtifactDelete.ts';
import { useBrowserEvents } from '../../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import { useCurrentUser } from '../../../machines/session/useSession.ts';
import type { SharedArtifactBrief, SharedPortfolioSummary } from '../../../schemas/sharedPortfolio.ts';
import { NOT_IN_PORTFOLIO } from '../../portfolios/Notices.tsx';
import { SharedArtifactView } from './SharedArtifactView.tsx';
import { MentionCandidatesContext, type MentionCandidate } from '../discussion/mentionCandidates.ts';
import { theme } from '../../theme/theme.ts';

/** What the pane says between deleting the artifact and showing its portfolio. */
export const DELETED_NOTE = 'This artifact was deleted. Returning to the shared portfolio…';

const Note = styled.p`
  margin: 0;
  color: ${theme.color.textMuted};
`;

/** Who a comment may mention: the shared portfolio's owner and members, each once, not the viewer. */
export function mentionCandidates(
  portfolio: Pick<SharedPortfolioSummary, 'owner' | 'members'>,
  viewerId: number | null,
): MentionCandidate[] {
  const people = new Map<number, MentionCandidate>();
  for (const person of [portfolio.owner, ...portfolio.members]) {
    if (person.id !== viewerId) people.set(person.id, { id: person.id, username: person.username });
  }
  return [...people.values()];
}

/**
 * The detail pane's content for the shared artifact of the address. It holds the artifact's
 * deletion (the shared delete of the artifact actions provider above), so after a deletion it
 * says so until the app shows the portfolio two seconds later, even once the artifact has left
 * the table.
 */
export function SharedArtifactPane({
  artifactId,
  portfolio,
  artifact,
}: {
  artifactId: number;
  portfolio: SharedPortfolioSummary;
  /** The artifact in brief, while the portfolio holds it. */
  artifact: SharedArtifactBrief | null;
}) {
  const user = useCurrentUser();
  const { artifactRemoved, patchDiscussion } = useBrowserEvents();
  const [deleted, setDeleted] = useState(false);
  const handleDeleted = useCallback(() => {
    setDeleted(true);
    // The table drops the artifact at once; this pane says so until the app shows the portfolio.
    artifactRemoved(artifactId);
  }, [artifactRemoved, artifactId]);
  const name = artifact ? artifactTitle(artifact.responses) : '';
  const deletion = useArtifactDeleteActor({ artifactId, portfolioId: portfolio.id, name }, handleDeleted);
  const viewerId = user?.id ?? null;
  const mentionable = useMemo(() => mentionCandidates(portfolio, viewerId), [portfolio, viewerId]);
  if (deleted) return <Note role="status">{DELETED_NOTE}</Note>;
  if (!artifact) return <Note role="status">{NOT_IN_PORTFOLIO}</Note>;
  return (
    <MentionCandidatesContext.Provider value={mentionable}>
      <SharedArtifactView
        artifact={artifact}
        viewerId={user?.id ?? null}
        mutable={artifact.abilities?.comment ?? false}
        deletion={deletion}
        onChanged={patchDiscussion}
        headingLevel={3}
      />
    </MentionCandidatesContext.Provider>
  );
}
