import styled from 'styled-components';
import {
  useActiveArchive,
  useArchiveError,
  useArchiveRequestError,
  useArchiveRows,
  useCanRequestArchive,
  useTeacherArchiveEvents,
  useTeacherArchiveStatus,
  type ArchiveRow,
} from '../../machines/teacherArchive/useTeacherArchive.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { Problem } from '../portfolios/Notices.tsx';
import { DashboardSection } from './DashboardSection.tsx';
import { formatDateTime, formatSize } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';

/** The section's texts. */
export const ARCHIVE_TEXT = {
  title: 'Download my archive',
  intro:
    'Take your work with you: one ZIP file with every portfolio and artifact, their answers and files, and the comments on your artifacts in shared portfolios. Its pages open in any web browser without an internet connection; the same content is included as data (JSON) with the original files.',
  request: 'Prepare my archive',
  requesting: 'Asking for your archive…',
  preparing: 'Preparing your archive',
  preparingNote: 'You can leave this page: we will e-mail you a link when your archive is ready.',
  loading: 'Loading your archives',
  loadFailed: 'Your archives could not be loaded',
  requestFailed: 'Your archive could not be requested',
  pollFailed: 'The progress of your archive could not be checked',
  checkAgain: 'Check again',
  previous: 'Your archives',
  none: 'You have no archives yet.',
} as const;

const STATUS_TEXT: Record<ArchiveRow['status'], string> = {
  queued: 'Waiting to start',
  building: 'Being prepared',
  ready: 'Ready',
  failed: 'Could not be prepared',
};

const Intro = styled.p`
  margin: 0 0 ${theme.space.md};
  max-width: 75ch;
`;

const Progress = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  max-width: 480px;
  margin-bottom: ${theme.space.md};
  p {
    margin: 0;
  }
`;

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  margin-top: ${theme.space.md};
  caption {
    text-align: left;
    font-weight: ${theme.font.weight.bold};
    margin-bottom: ${theme.space.sm};
  }
  th,
  td {
    text-align: left;
    padding: ${theme.space.sm};
    border-bottom: 1px solid ${theme.color.border};
    vertical-align: top;
  }
  /* Too narrow for five columns: each archive becomes a card of labelled lines. */
  @media ${theme.media.compact} {
    thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    tr {
      display: block;
      border-bottom: 1px solid ${theme.color.border};
      padding: ${theme.space.sm} 0;
    }
    td {
      display: block;
      border-bottom: 0;
      padding: ${theme.space.xxs} ${theme.space.sm};
      overflow-wrap: anywhere;
    }
    td[data-label]:not(:empty)::before {
      content: attr(data-label) ': ';
      font-weight: ${theme.font.weight.medium};
    }
  }
`;

const sizeText = (bytes: number | null): string => (bytes === null ? '' : formatSize(bytes));

function contentsText(row: ArchiveRow): string {
  const { portfolios, artifacts, sharedArtifacts, media } = row.counts;
  if (row.status === 'queued') return '';
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(portfolios, 'portfolio')}, ${plural(artifacts, 'artifact')}, ${plural(sharedArtifacts, 'shared artifact')}, ${plural(media, 'file')}`;
}

function ArchiveTable({ rows }: { rows: readonly ArchiveRow[] }) {
  if (rows.length === 0) return <p>{ARCHIVE_TEXT.none}</p>;
  return (
    <Table>
      <caption>{ARCHIVE_TEXT.previous}</caption>
      <thead>
        <tr>
          <th scope="col">Requested</th>
          <th scope="col">Status</th>
          <th scope="col">Contents</th>
          <th scope="col">Available until</th>
          <th scope="col">
            <span className="visually-hidden">Download</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <td data-label="Requested">{formatDateTime(row.created_at)}</td>
            <td data-label="Status">{STATUS_TEXT[row.status]}</td>
            <td data-label="Contents">{contentsText(row)}</td>
            <td data-label="Available until">
              {row.status === 'ready' && row.expires_at ? formatDateTime(row.expires_at) : ''}
            </td>
            <td>
              {row.downloadUrl ? (
                <a
                  href={row.downloadUrl}
                  download
                  data-keep-clear=""
                  aria-label={`Download the archive of ${formatDateTime(row.created_at)} (${sizeText(row.size)})`}
                >
                  Download ({sizeText(row.size)})
                </a>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** "Download my archive" on a teacher's dashboard: ask for her archive, follow its preparation, download it. */
export function ArchiveSection() {
  const status = useTeacherArchiveStatus();
  const rows = useArchiveRows();
  const active = useActiveArchive();
  const error = useArchiveError();
  const requestError = useArchiveRequestError();
  const canRequest = useCanRequestArchive();
  const { request, retry } = useTeacherArchiveEvents();
  return (
    <div id="archive">
      <DashboardSection title={ARCHIVE_TEXT.title}>
        <Intro>{ARCHIVE_TEXT.intro}</Intro>
        {status === 'loading' ? <p role="status">{ARCHIVE_TEXT.loading}…</p> : null}
        {status === 'loadFailed' ? (
          <Problem title={ARCHIVE_TEXT.loadFailed} message={error?.message} onRetry={retry} />
        ) : null}
        {status === 'ready' || status === 'requesting' ? (
          <>
            {requestError ? <Problem title={ARCHIVE_TEXT.requestFailed} message={requestError.message} /> : null}
            <BusyButton
              type="button"
              busy={status === 'requesting'}
              busyLabel={ARCHIVE_TEXT.requesting}
              disabled={!canRequest}
              onClick={request}
            >
              {ARCHIVE_TEXT.request}
            </BusyButton>
          </>
        ) : null}
        {(status === 'watching' || status === 'pollFailed') && active ? (
          <Progress>
            <ProgressBar value={active.progress * 100} label={ARCHIVE_TEXT.preparing} />
            <p>{ARCHIVE_TEXT.preparingNote}</p>
          </Progress>
        ) : null}
        {status === 'pollFailed' ? (
          <div role="alert">
            <p>
              {ARCHIVE_TEXT.pollFailed}: {error?.message}
            </p>
            <Button type="button" onClick={retry}>
              {ARCHIVE_TEXT.checkAgain}
            </Button>
          </div>
        ) : null}
        {status === 'loading' || status === 'loadFailed' ? null : <ArchiveTable rows={rows} />}
      </DashboardSection>
    </div>
  );
}
