import { useId } from 'react';
import styled from 'styled-components';
import type { CoverageRowKind } from '../../schemas/coverage.ts';
import type { CoverageRequest } from '../../schemas/coverage.ts';
import { BusyMessage } from '../components/BusyMessage.tsx';
import { lazyPart } from '../components/lazyParts.tsx';
import { theme } from '../theme/theme.ts';

// The map, its machine and its table load with the section: a chunk of their own, so that the
// dashboard and the shared portfolio pages load without them (decision 056).
const CoveragePanel = lazyPart(
  () => import('./CoveragePanel.tsx'),
  'CoveragePanel',
  <BusyMessage busy message="Loading the coverage map" />,
);

const Section = styled.section`
  min-width: 0;
  margin: ${theme.space.lg} 0 ${theme.space.xl};
  h2 {
    margin: 0 0 ${theme.space.xs};
    font-size: ${theme.font.size.lg};
  }
  > p {
    margin: 0 0 ${theme.space.md};
    color: ${theme.color.textMuted};
  }
`;

/** "Standards coverage": a section holding a coverage map (the dashboard's, a shared portfolio's). */
export function CoverageSection({
  input,
  rowLabels,
  intro,
}: {
  input: CoverageRequest;
  rowLabels: Record<CoverageRowKind, string> | null;
  intro: string;
}) {
  const headingId = useId();
  return (
    <Section aria-labelledby={headingId}>
      <h2 id={headingId}>Standards coverage</h2>
      <p>{intro}</p>
      <CoveragePanel input={input} rowLabels={rowLabels} />
    </Section>
  );
}
