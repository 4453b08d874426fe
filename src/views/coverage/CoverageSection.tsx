import { useId } from 'react';
import styled from 'styled-components';
import type { CoverageRequest, CoverageRowKind } from '../../schemas/coverage.ts';
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

/** The map of each place that holds the section: what it covers first, how its rows are named, what it says. */
const PLACES = {
  dashboard: {
    scope: 'teacher',
    rows: 'portfolios',
    rowLabels: { portfolios: 'My portfolios', teachers: 'All my work together' },
    intro:
      'How often your artifacts are tagged with each NGSS practice, crosscutting concept or core idea, and the highest rubric level your shared copies were scored. Choose a cell to list its artifacts.',
  },
  sharedPortfolio: {
    scope: 'shared',
    rows: 'teachers',
    rowLabels: { teachers: 'Members', portfolios: 'The whole portfolio' },
    intro:
      "How often this portfolio's artifacts are tagged with each NGSS practice, crosscutting concept or core idea, by member, and the highest rubric level scored. Choose a cell to list its artifacts.",
  },
} as const satisfies Record<
  string,
  { scope: CoverageRequest['scope']; rows: CoverageRowKind; rowLabels: Record<CoverageRowKind, string>; intro: string }
>;

/**
 * "Standards coverage": a section holding a coverage map — the dashboard's (`id`: the signed-in
 * teacher) or a shared portfolio's (`id`: the portfolio). The pages load it on first use
 * (`lazyPart`): the section, the map, its machine and its table are a chunk of their own, so that
 * the pages' bundles do not grow (decision 056).
 */
export function CoverageSection({ place, id }: { place: keyof typeof PLACES; id: number }) {
  const headingId = useId();
  const { scope, rows, rowLabels, intro } = PLACES[place];
  return (
    <Section aria-labelledby={headingId}>
      <h2 id={headingId}>Standards coverage</h2>
      <p>{intro}</p>
      <CoveragePanel input={{ scope, id, rows, dimension: 'practices' }} rowLabels={rowLabels} />
    </Section>
  );
}
