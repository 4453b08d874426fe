import { useMemo, type ComponentType } from 'react';
import styled from 'styled-components';
import { useChartView, useFocusedMark, useInsightsEvents } from '../../machines/insights/useInsights.ts';
import {
  CHART_TITLES,
  rowText,
  summaryOf,
  tableOf,
  type ChartFormat,
  type ChartId,
} from '../../machines/insights/selectors.ts';
import type { Insights } from '../../schemas/insights.ts';
import { Button } from '../components/Button.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { theme } from '../theme/theme.ts';
import { useBoxWidth } from './chartKit.tsx';
import type { ChartProps } from './chartProps.ts';

const Panel = styled.section`
  margin-bottom: ${theme.space.xl};
  padding: ${theme.space.lg};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  @media ${theme.media.phone} {
    padding: ${theme.space.md};
  }
  h2 {
    margin: 0 0 ${theme.space.sm};
    font-size: ${theme.font.size.lg};
  }
`;

const Summary = styled.p`
  max-width: 75ch;
  margin: 0 0 ${theme.space.md};
`;

const Tools = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm};
  margin-bottom: ${theme.space.md};
  span {
    color: ${theme.color.textMuted};
  }
`;

const Figure = styled.div`
  overflow-x: auto;
  svg {
    display: block;
  }
  .chart-mark:focus {
    outline: none;
  }
  .chart-mark:focus-visible > :first-child {
    outline: 3px solid ${theme.color.focus};
    outline-offset: 2px;
  }
`;

const Readout = styled.p`
  min-height: 1.5em;
  margin: ${theme.space.sm} 0 0;
  font-weight: ${theme.font.weight.medium};
`;

const FORMATS: { format: ChartFormat; label: string }[] = [
  { format: 'svg', label: 'SVG' },
  { format: 'png', label: 'PNG' },
  { format: 'csv', label: 'CSV' },
];

/**
 * One chart of the Insights page: its title, its text summary, a toggle between the picture and
 * a data table of the same numbers, its downloads (SVG, PNG, the data as CSV), and under the
 * picture a readout of the mark the keyboard or pointer is on. The picture stays drawn while the
 * table shows (hidden), so that it can still be downloaded.
 */
export function ChartPanel({
  chart,
  data,
  Chart,
  busy,
}: {
  chart: ChartId;
  data: Insights;
  Chart: ComponentType<ChartProps>;
  busy: boolean;
}) {
  const view = useChartView(chart);
  const active = useFocusedMark(chart);
  const { toggle, focusMark, requestFile } = useInsightsEvents();
  const { ref, width } = useBoxWidth();
  const table = useMemo(() => tableOf(chart, data), [chart, data]);
  const labels = useMemo(() => table.rows.map((_, i) => rowText(table, i)), [table]);
  const title = CHART_TITLES[chart];
  const headingId = `${chart}-heading`;
  const summaryId = `${chart}-summary`;
  const empty = table.rows.length === 0;
  return (
    <Panel aria-labelledby={headingId} aria-describedby={summaryId}>
      <h2 id={headingId}>{title}</h2>
      <Summary id={summaryId}>{summaryOf(chart, data)}</Summary>
      {empty ? null : (
        <>
          <Tools>
            <Button type="button" $variant="secondary" $small onClick={() => toggle(chart)}>
              {view === 'chart' ? 'Show the data table' : 'Show the chart'}
            </Button>
            <span aria-hidden="true">Download:</span>
            {FORMATS.map(({ format, label }) => (
              <Button
                key={format}
                type="button"
                $variant="secondary"
                $small
                disabled={busy}
                aria-label={`Download ${title} as ${label}`}
                onClick={() => requestFile(chart, format)}
              >
                {label}
              </Button>
            ))}
          </Tools>
          <div ref={ref}>
            <Figure hidden={view !== 'chart'}>
              <Chart
                data={data}
                width={width}
                active={active}
                labels={labels}
                onFocusMark={(i) => focusMark(chart, i)}
              />
              <Readout aria-live="polite">
                {active === undefined
                  ? 'Move the pointer over a bar, or Tab to the chart and use the arrow keys.'
                  : labels[active]}
              </Readout>
            </Figure>
            {view === 'table' ? (
              <DataTable
                caption={title}
                columns={table.columns.map((header, i) => ({
                  id: String(i),
                  header,
                  ...(i > 0 && typeof table.rows[0]![i] === 'number' ? { align: 'end' as const } : {}),
                }))}
              >
                {table.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, c) => (
                      <td key={c} data-align={c > 0 && typeof cell === 'number' ? 'end' : undefined}>
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))}
              </DataTable>
            ) : null}
          </div>
        </>
      )}
    </Panel>
  );
}
