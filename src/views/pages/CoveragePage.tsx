import styled from 'styled-components';
import { Link } from 'wouter';
import type { CoverageRow } from '../../schemas/coverage.ts';
import type { CoverageRequest } from '../../schemas/coverage.ts';
import { InsightsNav } from '../components/InsightsNav.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { CoveragePanel } from '../coverage/CoveragePanel.tsx';
import { paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';

const Intro = styled.p`
  margin: 0 0 ${theme.space.md};
  color: ${theme.color.textMuted};
  max-width: 70ch;
`;

/** A row's own map: a teacher's portfolios, a shared portfolio's members. */
export function coverageRowHref(row: CoverageRow): string | null {
  if (row.kind === 'teacher') return `${paths.coverage}?teacher=${row.id}`;
  if (row.kind === 'shared') return `${paths.coverage}?shared=${row.id}`;
  return null;
}

/**
 * Standards Coverage (researchers): the whole installation's map, by teacher or by shared
 * portfolio; a row's name opens that teacher's or portfolio's own map (`?teacher=`, `?shared=`).
 */
export function CoveragePage({ teacher, shared }: { teacher: number | null; shared: number | null }) {
  const input: CoverageRequest =
    teacher !== null
      ? { scope: 'teacher', id: teacher, rows: 'portfolios', dimension: 'practices' }
      : shared !== null
        ? { scope: 'shared', id: shared, rows: 'teachers', dimension: 'practices' }
        : { scope: 'installation', id: null, rows: 'teachers', dimension: 'practices' };
  const rowLabels =
    input.scope === 'installation'
      ? { teachers: 'Teachers', portfolios: 'Shared portfolios' }
      : input.scope === 'teacher'
        ? { portfolios: 'Her portfolios', teachers: 'All her work together' }
        : { teachers: 'Members', portfolios: 'The whole portfolio' };
  return (
    <>
      <PageHeading title="Standards Coverage" />
      <InsightsNav />
      <Intro>
        How often artifacts are tagged with each NGSS practice, crosscutting concept or core idea, and the highest
        rubric level scored on it. Choose a cell to list its artifacts.
        {input.scope === 'installation' ? ' A name opens that teacher’s or shared portfolio’s own map.' : ' '}
        {input.scope !== 'installation' ? <Link href={paths.coverage}>Back to the whole installation</Link> : null}
      </Intro>
      <CoveragePanel
        input={input}
        rowLabels={rowLabels}
        {...(input.scope === 'installation' ? { rowHref: coverageRowHref } : {})}
      />
    </>
  );
}
