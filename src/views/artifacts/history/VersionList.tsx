import styled from 'styled-components';
import type { VersionPair } from '../../../machines/artifactHistory/artifactHistoryMachine.ts';
import { formatDateTime } from '../../../schemas/formatting.ts';
import type { VersionClient, VersionSummary } from '../../../schemas/versions.ts';
import { Button } from '../../components/Button.tsx';
import { theme } from '../../theme/theme.ts';

const CLIENT_LABELS: Record<VersionClient, string> = {
  web: 'on the web',
  mobile: 'in the mobile app',
  copy: 'copied',
  restore: 'restored',
  system: 'by the system',
};

/** How a version was saved, e.g. "on the web", "restored from version 2". */
export function clientLabel(version: Pick<VersionSummary, 'client' | 'restoredFrom'>): string {
  return version.client === 'restore' && version.restoredFrom !== null
    ? `restored from version ${version.restoredFrom}`
    : CLIENT_LABELS[version.client];
}

const List = styled.ol`
  display: flex;
  flex-direction: column;
  margin: 0;
  padding: 0;
  list-style: none;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  li + li {
    border-top: 1px solid ${theme.color.border};
  }
`;

const Item = styled.li<{ $current: boolean }>`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.xs} ${theme.space.md};
  padding: ${theme.space.sm} ${theme.space.md};
  background: ${({ $current }) => ($current ? theme.color.surfaceAlt : 'transparent')};
  border-left: 4px solid ${({ $current }) => ($current ? theme.color.primary : 'transparent')};
`;

const Facts = styled.div`
  flex: 1 1 16rem;
  min-width: 0;
  p {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const Meta = styled.p`
  font-size: ${theme.font.size.sm};
  color: ${theme.color.textMuted};
`;

const Buttons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
`;

/**
 * The versions, newest first: number, author, time, client and the server's one-line summary;
 * "Show changes" compares one with the one before it; "Restore" is offered to those who may edit
 * (never on the newest version, which is the artifact as it is).
 */
export function VersionList({
  versions,
  total,
  pair,
  canRestore,
  busy,
  onShowChanges,
  onRestore,
}: {
  versions: readonly VersionSummary[];
  total: number;
  pair: VersionPair | null;
  canRestore: boolean;
  busy: boolean;
  onShowChanges: (number: number) => void;
  onRestore: (number: number) => void;
}) {
  return (
    <List aria-label="Versions, newest first">
      {versions.map((v) => {
        const shown = pair?.newer === v.number && pair.older === v.number - 1;
        return (
          <Item key={v.number} $current={shown}>
            <Facts>
              <p>
                <strong>Version {v.number}</strong>
                {v.number === total ? ' (current)' : ''} · {v.author?.name ?? 'A former user'}
              </p>
              <Meta>
                <time dateTime={v.created_at}>{formatDateTime(v.created_at)}</time>, {clientLabel(v)}
              </Meta>
              <p>{v.summary}</p>
            </Facts>
            <Buttons>
              {v.number > 1 ? (
                <Button
                  type="button"
                  $small
                  $variant="secondary"
                  aria-pressed={shown}
                  aria-label={`Show changes of version ${v.number}`}
                  disabled={busy}
                  onClick={() => onShowChanges(v.number)}
                >
                  Show changes
                </Button>
              ) : null}
              {canRestore && v.number !== total ? (
                <Button
                  type="button"
                  $small
                  $variant="secondary"
                  aria-label={`Restore version ${v.number}`}
                  disabled={busy}
                  onClick={() => onRestore(v.number)}
                >
                  Restore
                </Button>
              ) : null}
            </Buttons>
          </Item>
        );
      })}
    </List>
  );
}
