import { useId } from 'react';
import styled from 'styled-components';
import type { CoverageRowKind } from '../../schemas/coverage.ts';
import type { CoverageRequest } from '../../schemas/coverage.ts';
import { theme } from '../theme/theme.ts';
import { CoveragePanel } from './CoveragePanel.tsx';

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

/**
 * "Standards coverage": a section holding a coverage map (the dashboard's, a shared portfolio's).
 * The pages load it on first use (`lazyPart`): the section, the map, its machine and its table are
 * a chunk of their own, so that the pages' bundles do not grow (decision 056).
 */
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
