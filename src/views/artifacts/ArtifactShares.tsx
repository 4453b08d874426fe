import { useId } from 'react';
import { Link } from 'wouter';
import styled from 'styled-components';
import type { ArtifactSharesRef } from '../../machines/artifactShares/artifactSharesMachine.ts';
import {
  useArtifactSharesActor,
  useArtifactSharesError,
  useArtifactSharesEvents,
  useArtifactSharesStatus,
  useShares,
} from '../../machines/artifactShares/useArtifactShares.ts';
import type { ArtifactShare } from '../../schemas/notifications.ts';
import { cardStyle, MutedText, stackedListStyle } from '../components/cardStyles.ts';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { buildPath, paths } from '../paths.ts';
import { formatDate, formatRelative } from '../../schemas/formatting.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { CommentText } from '../shared/discussion/CommentText.tsx';
import { theme } from '../theme/theme.ts';

export const SHARES_TITLE = 'Shared to';
export const NOT_SHARED =
  'Not shared yet. COPY TO puts a copy in a shared portfolio, where its members can discuss it.';
export const SHARES_FAILED = 'Where this artifact is shared could not be loaded.';

const Section = styled.section`
  margin-top: ${theme.space.lg};
  padding-top: ${theme.space.md};
  border-top: 1px solid ${theme.color.border};
  h3,
  h4 {
    margin: 0 0 ${theme.space.sm};
    font-size: ${theme.font.size.lg};
  }
`;

const Shares = styled.ul`
  ${stackedListStyle}
`;

const Share = styled.li`
  ${cardStyle}
  & > p {
    margin: ${theme.space.xxs} 0 0;
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.sm};
  }
`;

const Comments = styled.ul`
  margin: ${theme.space.sm} 0 0;
  padding: 0;
  list-style: none;
  li {
    padding: ${theme.space.xs} 0;
    border-top: 1px solid ${theme.color.border};
    overflow-wrap: anywhere;
  }
  li > span {
    display: block;
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.sm};
  }
  q {
    quotes: none;
    display: -webkit-box;
    -webkit-line-clamp: 3;
    -webkit-box-orient: vertical;
    overflow: hidden;
    white-space: pre-wrap;
  }
`;

const commentsText = (count: number) => (count === 1 ? '1 comment' : `${count} comments`);

function ShareItem({ share }: { share: ArtifactShare }) {
  const viewer = useCurrentUser()?.username;
  // The people these comments may mention that the page knows of: their authors and the viewer.
  const names = [...share.latestComments.map((c) => c.owner.username), ...(viewer ? [viewer] : [])];
  const place = buildPath(paths.sharedArtifact, { id: share.sharedPortfolio.id, artifactId: share.sharedArtifact.id });
  return (
    <Share>
      <Link href={place}>{share.sharedPortfolio.name}</Link>
      <p>
        Shared on <time dateTime={share.shared_at}>{formatDate(share.shared_at)}</time> ·{' '}
        {commentsText(share.commentCount)}
      </p>
      {share.latestComments.length > 0 ? (
        <Comments aria-label={`Latest comments in ${share.sharedPortfolio.name}`}>
          {share.latestComments.map((comment) => (
            <li key={comment.id}>
              <span>
                <strong>{comment.owner.username}</strong> ·{' '}
                <time dateTime={comment.created_at}>{formatRelative(comment.created_at)}</time> ·{' '}
                <Link
                  href={`${place}#comment-${comment.id}`}
                  aria-label={`Open the comment by ${comment.owner.username} in ${share.sharedPortfolio.name}`}
                >
                  Open
                </Link>
              </span>
              <q>
                <CommentText text={comment.text} names={names} />
              </q>
            </li>
          ))}
        </Comments>
      ) : null}
    </Share>
  );
}

function SharesContent({ actor }: { actor: ArtifactSharesRef }) {
  const status = useArtifactSharesStatus(actor);
  const shares = useShares(actor);
  const error = useArtifactSharesError(actor);
  const { retry } = useArtifactSharesEvents(actor);
  if (status === 'loading') return <MutedText role="status">Loading where this artifact is shared…</MutedText>;
  if (status === 'failed') {
    return <LoadFailed what={SHARES_FAILED} message={error?.message} onRetry={retry} />;
  }
  if (shares.length === 0) return <MutedText>{NOT_SHARED}</MutedText>;
  return (
    <Shares>
      {shares.map((share) => (
        <ShareItem key={share.sharedArtifact.id} share={share} />
      ))}
    </Shares>
  );
}

/**
 * "Shared to": the shared portfolios holding a copy of this artifact (and when it was shared), each
 * copy's comment count and latest comments, with links to the copy and to each comment. Needs
 * `ArtifactSharesContext` above it; give it a `key` of the artifact so that another artifact starts afresh.
 */
export function ArtifactShares({
  artifactId,
  headingLevel = 4,
}: {
  artifactId: number;
  /** Level of the section's heading. */ headingLevel?: 3 | 4;
}) {
  const headingId = useId();
  const actor = useArtifactSharesActor(artifactId);
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <Section aria-labelledby={headingId}>
      <Heading id={headingId}>{SHARES_TITLE}</Heading>
      <SharesContent actor={actor} />
    </Section>
  );
}
