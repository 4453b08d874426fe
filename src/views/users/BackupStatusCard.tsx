import styled from 'styled-components';
import { useBackupStatus, useBackupStatusEvents } from '../../machines/backupStatus/useBackupStatus.ts';
import type { BackupStatusRef } from '../../machines/backupStatus/backupStatusMachine.ts';
import type { BackupSchedule, BackupStatus } from '../../schemas/backup.ts';
import { formatDateTime, formatSize } from '../../schemas/formatting.ts';
import { Button } from '../components/Button.tsx';
import { theme } from '../theme/theme.ts';

/** What the card says in each case (tests read the same text). */
export const BACKUP_TEXT = {
  label: 'Scheduled backups',
  loading: 'Checking the last backup…',
  loadFailed: 'The backup status could not be loaded.',
  retry: 'Check again',
  off: 'Scheduled backups are off (BACKUP_DIR is not set).',
  never: 'No backup has run yet.',
} as const;

type Tone = 'neutral' | 'ok' | 'failed';

const Card = styled.div<{ $tone: Tone }>`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xxs};
  margin-bottom: ${theme.space.md};
  padding: ${theme.space.sm} ${theme.space.md};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-left: 4px solid
    ${({ $tone }) =>
      $tone === 'failed' ? theme.color.danger : $tone === 'ok' ? theme.color.success : theme.color.borderStrong};
  border-radius: ${theme.radius.md};
  overflow-wrap: anywhere;
  p {
    margin: 0;
  }
`;

const Headline = styled.p<{ $tone: Tone }>`
  color: ${({ $tone }) => ($tone === 'failed' ? theme.color.danger : theme.color.text)};
  strong {
    font-weight: ${theme.font.weight.bold};
  }
`;

const Detail = styled.p`
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

const Cron = styled.code`
  font-family: ${theme.font.mono};
  white-space: nowrap;
`;

const utc = (timestamp: string): string => formatDateTime(timestamp, { utc: true });

function ScheduleLine({ schedule }: { schedule: BackupSchedule }) {
  return (
    <Detail>
      Schedule: <Cron>{schedule.cron}</Cron> (cron, UTC) · the newest {schedule.keep} kept
    </Detail>
  );
}

function LastRun({ run }: { run: NonNullable<BackupStatus['lastRun']> }) {
  if (!run.ok) {
    return (
      <Headline $tone="failed">
        <strong>Last backup failed</strong> on {utc(run.finished_at)}: {run.error}
      </Headline>
    );
  }
  return (
    <Headline $tone="ok">
      <strong>Last backup:</strong> {utc(run.finished_at)} · {formatSize(run.size)} · completed
    </Headline>
  );
}

function StatusLines({ status }: { status: BackupStatus }) {
  const { schedule, lastRun, running } = status;
  return (
    <>
      {schedule ? null : <Headline $tone="neutral">{BACKUP_TEXT.off}</Headline>}
      {lastRun ? (
        <LastRun run={lastRun} />
      ) : schedule && !running ? (
        <Headline $tone="neutral">{BACKUP_TEXT.never}</Headline>
      ) : null}
      {running ? (
        <Headline $tone="neutral">A backup is being written now (started {utc(running.started_at)}).</Headline>
      ) : null}
      {lastRun?.ok && lastRun.file ? <Detail>File: {lastRun.file}</Detail> : null}
      {schedule ? <ScheduleLine schedule={schedule} /> : null}
    </>
  );
}

const toneOf = (status: BackupStatus | null): Tone => {
  if (!status?.lastRun) return 'neutral';
  return status.lastRun.ok ? 'ok' : 'failed';
};

/**
 * The scheduled backups at a glance (researchers, on Manage Users): the last backup that ended
 * (when, its size, completed or failed and why), one being written now, and the schedule; or that
 * they are off. It loads beside the users table; a failure to load stays a line of its own.
 */
export function BackupStatusCard({ actorRef }: { actorRef: BackupStatusRef }) {
  const { phase, status, error } = useBackupStatus(actorRef);
  const { retry } = useBackupStatusEvents(actorRef);
  const tone = phase === 'ready' ? toneOf(status) : 'neutral';
  return (
    <Card role="status" aria-label={BACKUP_TEXT.label} $tone={tone} data-tone={tone}>
      {phase === 'loading' ? <Detail>{BACKUP_TEXT.loading}</Detail> : null}
      {phase === 'loadFailed' ? (
        <Detail>
          {BACKUP_TEXT.loadFailed} {error?.message}{' '}
          <Button type="button" $variant="link" onClick={retry}>
            {BACKUP_TEXT.retry}
          </Button>
        </Detail>
      ) : null}
      {phase === 'ready' && status ? <StatusLines status={status} /> : null}
    </Card>
  );
}
