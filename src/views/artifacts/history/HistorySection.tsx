import { useId, useState } from 'react';
import styled from 'styled-components';
import type { HistoryHolder, StoredArtifact } from '../../../machines/artifactHistory/artifactHistoryMachine.ts';
import type { Structure } from '../../../schemas/structure.ts';
import { BusyMessage } from '../../components/BusyMessage.tsx';
import { Button } from '../../components/Button.tsx';
import { lazyPart } from '../../components/lazyParts.tsx';
import { theme } from '../../theme/theme.ts';

// The history (its machine, views and the diff library) loads when first opened: a chunk of its
// own, so that the artifact pages load without it.
const ArtifactHistory = lazyPart(
  () => import('./ArtifactHistory.tsx'),
  'ArtifactHistory',
  <BusyMessage busy message="Loading the history" />,
);

export const HISTORY_TITLE = 'History';

const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  min-width: 0;
  margin-top: ${theme.space.lg};
  padding-top: ${theme.space.md};
  border-top: 1px solid ${theme.color.border};
  & > div:first-child {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: ${theme.space.sm} ${theme.space.md};
  }
  h3,
  h4 {
    margin: 0;
    font-size: ${theme.font.size.lg};
  }
`;

/**
 * "History" under an artifact: a button opens the list of its versions, their differences and,
 * for those who may edit, Restore.
 */
export function HistorySection({
  holder,
  artifactId,
  updatedAt,
  structure,
  canRestore,
  onChanged,
  headingLevel,
}: {
  holder: HistoryHolder;
  artifactId: number;
  updatedAt: string;
  structure: Structure;
  canRestore: boolean;
  onChanged: (artifact: StoredArtifact) => void;
  /** Level of the section's heading. */
  headingLevel: 3 | 4;
}) {
  const headingId = useId();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <Section aria-labelledby={headingId}>
      <div>
        <Heading id={headingId}>{HISTORY_TITLE}</Heading>
        <Button
          type="button"
          $small
          $variant="secondary"
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={() => setOpen((was) => !was)}
        >
          {open ? 'Hide history' : 'Show history'}
        </Button>
      </div>
      {open ? (
        <div id={panelId}>
          <ArtifactHistory
            holder={holder}
            artifactId={artifactId}
            updatedAt={updatedAt}
            structure={structure}
            canRestore={canRestore}
            onChanged={onChanged}
            headingLevel={headingLevel}
          />
        </div>
      ) : null}
    </Section>
  );
}

/**
 * The artifact a page shows: the one it was given, or, once a restore stored a newer version,
 * that version's answers and files (until the page is given one at least as new).
 */
export function useStoredArtifact<T extends StoredArtifact>(artifact: T): [T, (stored: StoredArtifact) => void] {
  const [stored, setStored] = useState<StoredArtifact | null>(null);
  const shown =
    stored && Date.parse(stored.updated_at) > Date.parse(artifact.updated_at) ? { ...artifact, ...stored } : artifact;
  return [shown, setStored];
}
