import { useId, useMemo, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import type {
  HistoryHolder,
  StoredArtifact,
  VersionPair,
} from '../../../machines/artifactHistory/artifactHistoryMachine.ts';
import {
  useArtifactHistoryActor,
  useHistoryEvents,
  useHistoryStatus,
  useHistoryView,
} from '../../../machines/artifactHistory/useArtifactHistory.ts';
import { diffArtifacts } from '../../../machines/artifactHistory/versionDiff.ts';
import type { Structure } from '../../../schemas/structure.ts';
import type { VersionSummary } from '../../../schemas/versions.ts';
import { BusyMessage } from '../../components/BusyMessage.tsx';
import { Button } from '../../components/Button.tsx';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { theme } from '../../theme/theme.ts';
import { DiffView } from './DiffView.tsx';
import { VersionList } from './VersionList.tsx';

export const HISTORY_FAILED = 'The history could not be loaded.';
export const RESTORED = (from: number) => `Version ${from} was restored: it is now the newest version.`;
export const CHANGED =
  'This artifact was saved by someone else since you opened it, so nothing was restored. Its newest version is shown now.';

const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.md};
  min-width: 0;
`;

const Notice = styled.p`
  margin: 0;
  padding: ${theme.space.sm} ${theme.space.md};
  border-left: 4px solid ${theme.color.primary};
  background: ${theme.color.surfaceAlt};
`;

const Problem = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm};
  color: ${theme.color.danger};
  p {
    margin: 0;
  }
`;

const CompareForm = styled.form`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: ${theme.space.sm} ${theme.space.md};
  & > div {
    flex: 1 1 10rem;
  }
`;

const Diff = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  padding: ${theme.space.md};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  min-width: 0;
  h4,
  h5 {
    margin: 0;
    font-size: ${theme.font.size.md};
  }
`;

export interface ArtifactHistoryProps {
  holder: HistoryHolder;
  artifactId: number;
  /** The artifact's version as the page shows it (a restore is guarded with it). */
  updatedAt: string;
  /** The artifact's questions (the same for every version). */
  structure: Structure;
  /** Restore is offered (the owner; on a shared artifact, who may edit it). The server decides. */
  canRestore: boolean;
  /** The artifact as stored after a restore, for the page to show. */
  onChanged: (artifact: StoredArtifact) => void;
  /** Level of the diff's heading. */
  headingLevel: 3 | 4;
}

const versionOptions = (versions: readonly VersionSummary[]) =>
  versions.map((v) => ({ value: String(v.number), label: `Version ${v.number}` }));

function ComparePicker({
  versions,
  pair,
  onCompare,
}: {
  versions: readonly VersionSummary[];
  pair: VersionPair;
  onCompare: (older: number, newer: number) => void;
}) {
  const [older, setOlder] = useState(String(pair.older));
  const [newer, setNewer] = useState(String(pair.newer));
  const [problem, setProblem] = useState<string | null>(null);
  const options = useMemo(() => versionOptions(versions), [versions]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const [a, b] = [Number(older), Number(newer)];
    if (a === b) return setProblem('Choose two different versions.');
    setProblem(null);
    onCompare(Math.min(a, b), Math.max(a, b));
  };
  return (
    <CompareForm aria-label="Compare two versions" onSubmit={submit}>
      <SelectField label="From version" options={options} value={older} onChange={(e) => setOlder(e.target.value)} />
      <SelectField
        label="To version"
        options={options}
        value={newer}
        error={problem}
        onChange={(e) => setNewer(e.target.value)}
      />
      <Button type="submit" $variant="secondary">
        Compare
      </Button>
    </CompareForm>
  );
}

/**
 * The history of an artifact (loaded on first use): its versions page by page, the differences
 * between two of them field by field (the newest against the one before it at first), and a
 * restore of an earlier version after a confirmation.
 */
export function ArtifactHistory({
  holder,
  artifactId,
  updatedAt,
  structure,
  canRestore,
  onChanged,
  headingLevel,
}: ArtifactHistoryProps) {
  const diffHeadingId = useId();
  const ref = useArtifactHistoryActor({ holder, artifactId, updatedAt }, onChanged);
  const status = useHistoryStatus(ref);
  const view = useHistoryView(ref);
  const events = useHistoryEvents(ref);
  const { compared, pair } = view;
  const diff = useMemo(
    () => (compared ? diffArtifacts(structure, compared.older, compared.newer) : null),
    [compared, structure],
  );
  const Heading = headingLevel === 3 ? 'h4' : 'h5';
  const restoringNow = status === 'restoring';

  // Read again after a restore, the history stays on screen (and the focus where it was) until the new page is there.
  if (status === 'loading' && view.versions.length === 0) return <BusyMessage busy message="Loading the history" />;
  if (status === 'failed')
    return (
      <Problem role="alert">
        <p>
          {HISTORY_FAILED} {view.error?.error.message}
        </p>
        <Button type="button" $small onClick={events.retry}>
          Try again
        </Button>
      </Problem>
    );
  return (
    <Stack>
      {status === 'loading' ? <BusyMessage busy message="Loading the history" /> : null}
      <div role="status">
        {view.notice ? <Notice>{view.notice.kind === 'restored' ? RESTORED(view.notice.from) : CHANGED}</Notice> : null}
      </div>
      {view.error && view.error.of !== 'list' ? (
        <Problem role="alert">
          <p>
            {view.error.of === 'restore'
              ? 'The version could not be restored.'
              : view.error.of === 'read'
                ? 'The versions could not be read.'
                : 'Older versions could not be loaded.'}{' '}
            {view.error.error.message}
          </p>
          {view.error.of === 'read' ? (
            <Button type="button" $small onClick={events.retry}>
              Try again
            </Button>
          ) : null}
        </Problem>
      ) : null}
      {pair ? (
        <Diff aria-labelledby={diffHeadingId} aria-busy={status === 'reading'}>
          <Heading id={diffHeadingId}>
            Changes from version {pair.older} to version {pair.newer}
          </Heading>
          {diff ? <DiffView diff={diff} /> : <BusyMessage busy={status === 'reading'} message="Reading the versions" />}
          {view.versions.length >= 2 ? (
            <ComparePicker
              key={`${pair.older}-${pair.newer}`}
              versions={view.versions}
              pair={pair}
              onCompare={events.compare}
            />
          ) : null}
        </Diff>
      ) : (
        <p>This is the artifact’s only version so far.</p>
      )}
      <VersionList
        versions={view.versions}
        total={view.total}
        pair={pair}
        canRestore={canRestore}
        busy={restoringNow}
        onShowChanges={(n) => events.compare(n - 1, n)}
        onRestore={events.askRestore}
      />
      {view.hasMore ? (
        <Button
          type="button"
          $variant="secondary"
          onClick={events.more}
          disabled={status === 'loadingMore'}
          aria-busy={status === 'loadingMore'}
        >
          {status === 'loadingMore' ? 'Loading older versions…' : 'Load older versions'}
        </Button>
      ) : null}
      {(status === 'confirming' || restoringNow) && view.restoring !== null ? (
        <ConfirmDialog
          title={`Restore version ${view.restoring}?`}
          message="Its answers and files become the newest version. Nothing is lost: the current version stays in the history."
          confirmLabel={restoringNow ? 'Restoring…' : `Restore version ${view.restoring}`}
          cancelLabel="Cancel"
          busy={restoringNow}
          onConfirm={events.confirmRestore}
          onCancel={events.cancelRestore}
        />
      ) : null}
    </Stack>
  );
}
