import type { FormEvent } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { COPY_MESSAGES, type CopyFrom } from '../../machines/copyArtifact/copyArtifactMachine.ts';
import {
  useCanCopy,
  useCopyAddress,
  useCopyArtifactEvents,
  useCopyBusy,
  useCopyError,
  useCopyFrom,
  useCopying,
  useCopySource,
  useCopyStatus,
  useCopyTargetId,
  useCopyTargets,
  useIncludeNotes,
  useNotCopyableReason,
} from '../../machines/copyArtifact/useCopyArtifact.ts';
import { BusyMessage } from '../components/BusyMessage.tsx';
import { Button } from '../components/Button.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { TargetList } from '../copy/TargetList.tsx';
import { buildPath, paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';
import { panelStyle } from '../components/cardStyles.ts';

export const PAGE_TITLE = 'Copy Artifact';
export const TARGETS_LEGEND = 'Copy snapshot of artifact to:';
export const COPYING_MESSAGE = 'Copying artifact to shared portfolio';
/** The choice of copying one's private notes at moments of the videos (personal artifacts). */
export const INCLUDE_NOTES_LABEL =
  'Include my private notes at moments of its videos (they become my comments on the copy)';

const Card = styled.section`
  max-width: 760px;
  padding: ${theme.space.lg};
  ${panelStyle}
  p {
    margin: 0 0 ${theme.space.md};
  }
`;

const Source = styled.dl`
  margin: 0 0 ${theme.space.lg};
  dt {
    font-size: ${theme.font.size.sm};
    color: ${theme.color.textMuted};
    font-weight: ${theme.font.weight.medium};
  }
  dd {
    margin: 0;
    font-size: ${theme.font.size.lg};
    font-weight: ${theme.font.weight.bold};
    overflow-wrap: anywhere;
  }
`;

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.md};
`;

const NotesChoice = styled.label`
  display: flex;
  align-items: center;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.md};
  input {
    width: 20px;
    height: 20px;
  }
`;

const Links = styled.p`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.lg};
`;

const Problem = styled.div<{ $tone?: 'danger' | 'warning' }>`
  max-width: 760px;
  padding: ${theme.space.lg};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-left: 6px solid ${({ $tone = 'danger' }) => ($tone === 'danger' ? theme.color.danger : theme.color.warning)};
  border-radius: ${theme.radius.md};
  p {
    margin: 0 0 ${theme.space.md};
  }
  p:last-child {
    margin-bottom: 0;
  }
`;

/** The view of the artifact being copied. */
function artifactPath(from: CopyFrom, portfolioId: number, artifactId: number): string {
  return buildPath(from === 'sharedArtifact' ? paths.sharedArtifact : paths.myArtifact, {
    id: portfolioId,
    artifactId,
  });
}

function BackToArtifact() {
  const from = useCopyFrom();
  const { portfolioId, artifactId } = useCopyAddress();
  return <Link href={artifactPath(from, portfolioId, artifactId)}>Back to the artifact</Link>;
}

function SourceName() {
  const source = useCopySource();
  if (!source) return null;
  return (
    <Source>
      <dt>Artifact</dt>
      <dd>{source.title}</dd>
    </Source>
  );
}

function NotFound() {
  const from = useCopyFrom();
  const shared = from === 'sharedArtifact';
  return (
    <Problem>
      <p>{shared ? COPY_MESSAGES.sharedArtifactNotFound : COPY_MESSAGES.artifactNotFound}</p>
      <p>
        <Link href={shared ? paths.sharedPortfolios : paths.myPortfolios}>
          {shared ? 'Back to Shared Portfolios' : 'Back to My Portfolios'}
        </Link>
      </p>
    </Problem>
  );
}

function LoadFailed() {
  const error = useCopyError();
  const { retry } = useCopyArtifactEvents();
  return (
    <Problem role="alert">
      <p>{error?.message ?? 'Something went wrong. Please try again.'}</p>
      <Button type="button" onClick={retry}>
        Try again
      </Button>
    </Problem>
  );
}

function NotCopyable() {
  const reason = useNotCopyableReason();
  return (
    <Card>
      <SourceName />
      <Problem $tone="warning">
        <p>{reason === 'notAuthor' ? COPY_MESSAGES.notAuthor : COPY_MESSAGES.parkingLot}</p>
        <p>
          <BackToArtifact />
        </p>
      </Problem>
    </Card>
  );
}

function NoPortfolios() {
  const from = useCopyFrom();
  return (
    <Card>
      <SourceName />
      <p>{from === 'sharedArtifact' ? COPY_MESSAGES.noOtherPortfolios : COPY_MESSAGES.noPortfolios}</p>
      <Links>
        <Link href={paths.sharedPortfolios}>Shared Portfolios</Link>
        <BackToArtifact />
      </Links>
    </Card>
  );
}

function CopyForm() {
  const portfolios = useCopyTargets();
  const targetId = useCopyTargetId();
  const busy = useCopyBusy();
  const copying = useCopying();
  const canCopy = useCanCopy();
  const from = useCopyFrom();
  const includeNotes = useIncludeNotes();
  const { select, submit, cancel, includeNotes: setIncludeNotes } = useCopyArtifactEvents();

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <Card>
      <SourceName />
      <form onSubmit={handleSubmit} aria-busy={busy || undefined} aria-label="Copy artifact">
        <TargetList
          legend={TARGETS_LEGEND}
          portfolios={portfolios}
          selectedId={targetId}
          disabled={busy}
          onSelect={select}
        />
        {from === 'artifact' ? (
          <NotesChoice>
            <input
              type="checkbox"
              checked={includeNotes}
              disabled={busy}
              onChange={(e) => setIncludeNotes(e.target.checked)}
            />
            {INCLUDE_NOTES_LABEL}
          </NotesChoice>
        ) : null}
        <BusyMessage busy={copying} message={COPYING_MESSAGE} />
        <Bar>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            CANCEL
          </Button>
          <Button type="submit" disabled={busy || !canCopy}>
            COMPLETE COPY
          </Button>
        </Bar>
      </form>
    </Card>
  );
}

/**
 * Copy Artifact (spec §2): the artifact's name, a radio list 'Copy snapshot of artifact to:' of
 * the user's shared portfolios (name, Portfolio Topic, PLC Name), CANCEL and COMPLETE COPY. While
 * copying the form is disabled and 'Copying artifact to shared portfolio' shows with a spinner.
 */
export function CopyArtifactPage() {
  const status = useCopyStatus();
  return (
    <>
      <PageHeading title={PAGE_TITLE} />
      {status === 'loading' ? <PageSkeleton label="Loading artifact" /> : null}
      {status === 'notFound' ? <NotFound /> : null}
      {status === 'loadFailed' ? <LoadFailed /> : null}
      {status === 'notCopyable' ? <NotCopyable /> : null}
      {status === 'noPortfolios' ? <NoPortfolios /> : null}
      {status === 'form' ? <CopyForm /> : null}
    </>
  );
}
