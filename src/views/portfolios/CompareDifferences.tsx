import { useId, useMemo } from 'react';
import styled from 'styled-components';
import { diffArtifacts, type DiffSide } from '../../machines/artifactHistory/versionDiff.ts';
import type { Structure } from '../../schemas/structure.ts';
import { DiffView } from '../artifacts/history/DiffView.tsx';
import { theme } from '../theme/theme.ts';

const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.lg};
  padding-top: ${theme.space.md};
  border-top: 1px solid ${theme.color.border};
  min-width: 0;
  h3 {
    margin: 0;
    font-size: ${theme.font.size.lg};
    overflow-wrap: anywhere;
  }
`;

/** The heading of the comparison's differences. */
export const differencesTitle = (first: string, second: string) => `Differences from “${first}” to “${second}”`;

/**
 * The differences between the two artifacts compared side by side (loaded on first use), as the
 * history shows two versions: what the second has that the first lacks is marked added.
 */
export function CompareDifferences({
  structure,
  first,
  second,
  firstName,
  secondName,
}: {
  /** The portfolio's questions (both artifacts have them). */
  structure: Structure;
  first: DiffSide;
  second: DiffSide;
  firstName: string;
  secondName: string;
}) {
  const headingId = useId();
  const diff = useMemo(() => diffArtifacts(structure, first, second), [structure, first, second]);
  return (
    <Section aria-labelledby={headingId}>
      <h3 id={headingId}>{differencesTitle(firstName, secondName)}</h3>
      <DiffView diff={diff} />
    </Section>
  );
}
