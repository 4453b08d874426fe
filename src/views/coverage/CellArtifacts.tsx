import { useEffect, useId, useRef } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { useCoverageCell, useCoverageEvents } from '../../machines/coverage/useCoverage.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import type { Coverage, CoverageArtifact } from '../../schemas/coverage.ts';
import { formatDate } from '../../schemas/formatting.ts';
import { Button } from '../components/Button.tsx';
import { BusyMessage } from '../components/BusyMessage.tsx';
import { MutedText } from '../components/cardStyles.ts';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { buildPath, paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';

const Panel = styled.section`
  margin-top: ${theme.space.md};
  padding: ${theme.space.md};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surface};
  h3 {
    margin: 0;
    font-size: ${theme.font.size.lg};
  }
  ul {
    margin: ${theme.space.sm} 0;
    padding: 0;
    list-style: none;
  }
  li {
    padding: ${theme.space.sm} 0;
    border-bottom: 1px solid ${theme.color.surfaceAlt};
    overflow-wrap: anywhere;
  }
  li a {
    font-weight: ${theme.font.weight.medium};
  }
`;

const Head = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: center;
  gap: ${theme.space.sm};
`;

const Meta = styled.span`
  display: block;
  font-size: ${theme.font.size.sm};
  color: ${theme.color.textMuted};
`;

/** Where an artifact behind a cell opens: a shared one in its portfolio, a personal one in its owner's or, for a researcher, in Teacher Portfolios. */
export function artifactHref(item: CoverageArtifact, me: number | null): string {
  if (item.kind === 'shared') return buildPath(paths.sharedArtifact, { id: item.portfolio.id, artifactId: item.id });
  if (item.owner.id === me) return buildPath(paths.myArtifact, { id: item.portfolio.id, artifactId: item.id });
  return `${paths.teacherPortfolios}?teacher=${item.owner.id}&portfolio=${item.portfolio.id}&artifact=${item.id}`;
}

/** The artifacts behind the chosen cell: a page at a time, each a link to the artifact. */
export function CellArtifacts({ coverage }: { coverage: Coverage }) {
  const { status, cell, items, total, error } = useCoverageCell();
  const { more, close, retry } = useCoverageEvents();
  const user = useCurrentUser();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const opened = cell ? `${cell.row}:${cell.column}` : null;
  // A newly chosen cell: its list is where the reader goes next.
  useEffect(() => {
    if (opened) heading.current?.focus();
  }, [opened]);
  if (!cell || status === 'none') return null;
  const row = coverage.rows.find((r) => r.id === cell.row);
  const column = coverage.columns.find((c) => c.key === cell.column);
  return (
    <Panel aria-labelledby={headingId}>
      <Head>
        <h3 id={headingId} ref={heading} tabIndex={-1}>
          {row?.name ?? ''} · {column ? `${column.key} ${column.label}` : cell.column}
        </h3>
        <Button type="button" $variant="secondary" $small onClick={close}>
          Close
        </Button>
      </Head>
      {status === 'failed' ? (
        <LoadFailed what="The artifacts could not be loaded." message={error?.message} onRetry={retry} />
      ) : null}
      {items.length > 0 ? (
        <ul>
          {items.map((item) => (
            <li key={`${item.kind}-${item.id}`}>
              <Link href={artifactHref(item, user?.id ?? null)}>{item.title}</Link>
              <Meta>
                {item.portfolio.name} · {item.owner.username} · changed {formatDate(item.updated_at)}
              </Meta>
            </li>
          ))}
        </ul>
      ) : null}
      {status === 'ready' && total === 0 ? <MutedText>No artifacts here are tagged with it.</MutedText> : null}
      <BusyMessage busy={status === 'loading'} message="Loading the artifacts" />
      {status === 'ready' && total > 0 ? (
        <MutedText>
          {items.length} of {total} {total === 1 ? 'artifact' : 'artifacts'}
          {items.length < total ? (
            <>
              {' '}
              <Button type="button" $variant="link" onClick={more}>
                Show more
              </Button>
            </>
          ) : null}
        </MutedText>
      ) : null}
    </Panel>
  );
}
