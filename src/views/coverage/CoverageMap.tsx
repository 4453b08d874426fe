import { useId } from 'react';
import styled from 'styled-components';
import { useCoverageCell, useCoverageData, useCoverageEvents, useCoverageStatus } from '../../machines/coverage/useCoverage.ts';
import {
  COVERAGE_DIMENSIONS,
  COVERAGE_ROW_KINDS,
  type CoverageDimension,
  type CoverageRow,
  type CoverageRowKind,
} from '../../schemas/coverage.ts';
import { BusyMessage } from '../components/BusyMessage.tsx';
import { MutedText } from '../components/cardStyles.ts';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { theme } from '../theme/theme.ts';
import { CellArtifacts } from './CellArtifacts.tsx';
import { HeatMap } from './HeatMap.tsx';
import { SHADES, shadeRanges } from './heatScale.ts';

export const DIMENSION_LABELS: Record<CoverageDimension, string> = {
  practices: 'Science and engineering practices',
  crosscutting: 'Crosscutting concepts',
  coreIdeas: 'Disciplinary core ideas',
};

const Controls = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.md};
  align-items: flex-end;
  margin-bottom: ${theme.space.md};
  > * {
    min-width: 200px;
  }
`;

const Legend = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.xs} ${theme.space.md};
  margin: ${theme.space.sm} 0;
  font-size: ${theme.font.size.sm};
  color: ${theme.color.textMuted};
  ul {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space.xs};
    margin: 0;
    padding: 0;
    list-style: none;
  }
  li {
    min-width: 44px;
    padding: 2px ${theme.space.xs};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.sm};
    text-align: center;
  }
`;

/**
 * The coverage map of the actor in context: rows and columns to choose, the heat map with its
 * legend, and the artifacts of the chosen cell. `rowLabels` names the two kinds of rows of this
 * place (no choice when `null`); `rowHref` makes a row's name a link to its own map.
 */
export function CoverageMap({
  rowLabels,
  rowHref,
}: {
  rowLabels: Record<CoverageRowKind, string> | null;
  rowHref?: (row: CoverageRow) => string | null;
}) {
  const status = useCoverageStatus();
  const { coverage, query, error } = useCoverageData();
  const cell = useCoverageCell();
  const { changeRows, changeDimension, select, retry } = useCoverageEvents();
  const legendId = useId();
  const rowHeader = coverage?.rowKind === 'teachers' ? 'Teacher' : 'Portfolio';
  const max = coverage ? Math.max(0, ...coverage.rows.flatMap((r) => r.tagged)) : 0;
  const ranges = shadeRanges(max);
  return (
    <>
      <Controls>
        {rowLabels ? (
          <SelectField
            label="Rows"
            value={query.rows}
            options={COVERAGE_ROW_KINDS.map((k) => ({ value: k, label: rowLabels[k] }))}
            onChange={(e) => changeRows(e.target.value as CoverageRowKind)}
          />
        ) : null}
        <SelectField
          label="Columns"
          value={query.dimension}
          options={COVERAGE_DIMENSIONS.map((d) => ({ value: d, label: DIMENSION_LABELS[d] }))}
          onChange={(e) => changeDimension(e.target.value as CoverageDimension)}
        />
      </Controls>
      {status === 'loading' ? <BusyMessage busy message="Loading the coverage map" /> : null}
      {status === 'loadFailed' ? (
        <LoadFailed what="The coverage map could not be loaded." message={error?.message} onRetry={retry} />
      ) : null}
      {status === 'ready' && coverage ? (
        coverage.rows.length === 0 ? (
          <MutedText>Nothing to map yet: no artifacts here are tagged with standards.</MutedText>
        ) : (
          <>
            <Legend id={legendId}>
              <span>Artifacts tagged (darker: more):</span>
              <ul aria-label="Shades">
                {SHADES.map((shade, i) =>
                  ranges[i] === null ? null : (
                    <li key={shade.background} style={{ background: shade.background, color: shade.text }}>
                      {ranges[i]}
                    </li>
                  ),
                )}
              </ul>
              <span>L3/4: the highest rubric level scored (level 3 of 4).</span>
            </Legend>
            <HeatMap
              coverage={coverage}
              label={`Coverage of ${DIMENSION_LABELS[coverage.dimension].toLowerCase()}${coverage.name ? `: ${coverage.name}` : ''}`}
              rowHeader={rowHeader}
              selected={cell.cell}
              rowHref={rowHref}
              onSelect={select}
            />
            <CellArtifacts coverage={coverage} />
          </>
        )
      ) : null}
    </>
  );
}
