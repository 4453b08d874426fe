import styled from 'styled-components';
import type { UploadRef } from '../../machines/upload/uploadMachine.ts';
import { useUpload, useUploadEvents, type useRememberedUploads } from '../../machines/upload/useUploads.ts';
import { formatSize, formatTimeLeft } from '../../schemas/formatting.ts';
import { Button } from '../components/Button.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { theme } from '../theme/theme.ts';

export const Rows = styled.ul`
  margin: 0 0 ${theme.space.md};
  padding: 0;
  list-style: none;
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
`;

const Row = styled.li`
  display: grid;
  grid-template-columns: minmax(0, 1fr) minmax(120px, 2fr) auto;
  align-items: center;
  gap: ${theme.space.sm} ${theme.space.md};
  padding: ${theme.space.sm} ${theme.space.md};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surface};
  @media (max-width: 600px) {
    grid-template-columns: 1fr;
  }
`;

const FileName = styled.span`
  font-weight: ${theme.font.weight.medium};
  overflow-wrap: anywhere;
`;

const RowActions = styled.span`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
`;

const Details = styled.span`
  display: block;
  margin-top: ${theme.space.xs};
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
  font-variant-numeric: tabular-nums;
`;

const Warning = styled.span`
  display: block;
  margin-top: ${theme.space.xs};
  color: ${theme.color.warning};
  font-size: ${theme.font.size.sm};
`;

const Failure = styled.span`
  color: ${theme.color.danger};
`;

const Done = styled.span`
  color: ${theme.color.success};
`;

/** `120.0 MB of 512.0 MB · 4.2 MB/s · 1 min left`, as far as it is known. */
function progressText(sent: number, size: number, rate: number | null, secondsLeft: number | null): string {
  const parts = [`${formatSize(sent)} of ${formatSize(size)}`];
  if (rate !== null) parts.push(`${formatSize(rate)}/s`);
  if (secondsLeft !== null) parts.push(`${formatTimeLeft(secondsLeft)} left`);
  return parts.join(' · ');
}

/** One upload: its progress (bytes, speed, time left), its pause, its failure, and what may be done with it. */
export function UploadRowView({ upload }: { upload: UploadRef }) {
  const u = useUpload(upload);
  const { pause, resume, retry, dismiss } = useUploadEvents(upload);
  const { name, status } = u;
  const stoppable = status !== 'done' && status !== 'failed';
  return (
    <Row aria-label={name}>
      <FileName>{name}</FileName>
      <span>
        {status === 'queued' ? <span>Waiting to upload</span> : null}
        {status === 'uploading' || status === 'offline' || status === 'paused' ? (
          <>
            <ProgressBar value={u.percent} label={`${status === 'paused' ? 'Paused' : 'Uploading'} ${name}`} />
            <Details>
              {status === 'paused' ? 'Paused · ' : ''}
              {progressText(u.sent, u.size, u.rate, u.secondsLeft)}
            </Details>
            {status === 'offline' || u.reconnecting ? (
              <Warning role="status">
                {status === 'offline'
                  ? 'Connection lost. The upload goes on by itself when the connection is back.'
                  : 'Connection lost. Trying again…'}
              </Warning>
            ) : null}
          </>
        ) : null}
        {status === 'cancelling' ? <span>Cancelling…</span> : null}
        {status === 'done' ? <Done>Uploaded</Done> : null}
        {status === 'failed' ? <Failure role="alert">{u.error}</Failure> : null}
      </span>
      <RowActions>
        {u.canPause ? (
          <Button type="button" $small $variant="secondary" onClick={pause} aria-label={`Pause upload of ${name}`}>
            Pause
          </Button>
        ) : null}
        {u.canResume ? (
          <Button type="button" $small onClick={resume} aria-label={`Resume upload of ${name}`}>
            Resume
          </Button>
        ) : null}
        {u.canRetry ? (
          <Button type="button" $small onClick={retry} aria-label={`Retry upload of ${name}`}>
            {status === 'offline' ? 'Retry now' : 'Retry'}
          </Button>
        ) : null}
        <Button
          type="button"
          $small
          $variant="secondary"
          disabled={status === 'cancelling'}
          onClick={dismiss}
          aria-label={`${stoppable ? 'Cancel' : 'Dismiss'} upload of ${name}`}
        >
          {stoppable ? 'Cancel' : 'Dismiss'}
        </Button>
      </RowActions>
    </Row>
  );
}

/** Unfinished uploads from before (a reload, a closed tab): choosing the same file resumes one; Discard cancels it. */
export function RememberedRows({
  uploads,
  onDiscard,
}: {
  uploads: ReturnType<typeof useRememberedUploads>;
  onDiscard: (key: string) => void;
}) {
  if (uploads.length === 0) return null;
  return (
    <Rows aria-label="Unfinished uploads">
      {uploads.map((upload) => (
        <Row key={upload.key} aria-label={`Unfinished: ${upload.name}`}>
          <FileName>{upload.name}</FileName>
          <span>
            {upload.sent !== null
              ? `Stopped at ${Math.floor((upload.sent / Math.max(1, upload.size)) * 100)}% (${formatSize(upload.sent)} of ${formatSize(upload.size)}).`
              : `Not finished (${formatSize(upload.size)}).`}
            <Details>Choose this file again to resume its upload.</Details>
          </span>
          <RowActions>
            <Button
              type="button"
              $small
              $variant="secondary"
              onClick={() => onDiscard(upload.key)}
              aria-label={`Discard unfinished upload of ${upload.name}`}
            >
              Discard
            </Button>
          </RowActions>
        </Row>
      ))}
    </Rows>
  );
}
