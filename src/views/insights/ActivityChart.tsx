import { AxisBottom } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import type { ActivityWeek } from '../../schemas/insights.ts';
import { GRID, INK, Mark, Patterns, SERIES, seriesFill, textProps, type PatternKind } from './chartKit.tsx';
import type { ChartProps } from './chartProps.ts';

const SERIES_ROWS: { key: keyof Omit<ActivityWeek, 'week'>; label: string; colour: string; pattern: PatternKind }[] = [
  { key: 'artifacts', label: 'Shared artifacts', colour: SERIES.purple, pattern: 'dots' },
  { key: 'comments', label: 'Comments', colour: SERIES.blue, pattern: 'solid' },
  { key: 'reactions', label: 'Reactions', colour: SERIES.green, pattern: 'hatch' },
  { key: 'scores', label: 'Scores', colour: SERIES.red, pattern: 'cross' },
];

const PANEL = 64;
const GAP = 36;
const MARGIN = { top: 8, right: 12, bottom: 50, left: 36 };

/**
 * Activity per week as four small charts one above the other (shared artifacts, comments,
 * reactions, scores), each named in words and drawn in its own colour and pattern; a week is
 * one mark across the four.
 */
export function ActivityChart({ data, width, active, labels, onFocusMark }: ChartProps) {
  const weeks = data.activity;
  const innerWidth = Math.max(120, width - MARGIN.left - MARGIN.right);
  const height = MARGIN.top + 20 + SERIES_ROWS.length * (PANEL + GAP) + MARGIN.bottom - GAP;
  const x = scaleBand({ domain: weeks.map((w) => w.week), range: [0, innerWidth], padding: 0.2 });
  const every = Math.max(1, Math.ceil(weeks.length / Math.max(1, Math.floor(innerWidth / 90))));
  const top = (row: number) => row * (PANEL + GAP) + 20;
  // A few weeks make wide bands: the bars stay at most 48 px wide, in the middle of their band.
  const barWidth = Math.min(48, x.bandwidth());
  const barLeft = (week: string) => (x(week) ?? 0) + (x.bandwidth() - barWidth) / 2;
  return (
    <svg data-chart="activity" width={width} height={height} role="group" aria-label="Activity per week">
      <Patterns chart="activity" colours={SERIES_ROWS.map((s) => s.colour)} />
      <Group left={MARGIN.left} top={MARGIN.top}>
        {SERIES_ROWS.map((s, row) => {
          const max = Math.max(1, ...weeks.map((w) => w[s.key]));
          const y = scaleLinear({ domain: [0, max], range: [PANEL, 0], nice: true });
          const total = weeks.reduce((sum, w) => sum + w[s.key], 0);
          return (
            <Group key={s.key} top={top(row)} aria-hidden="true">
              <text {...textProps} x={0} y={-10} fontWeight={700}>
                {`${s.label}: ${total.toLocaleString('en-US')} in all`}
              </text>
              <line x1={0} x2={innerWidth} y1={PANEL} y2={PANEL} stroke={INK} />
              <line x1={0} x2={innerWidth} y1={0} y2={0} stroke={GRID} strokeDasharray="2 3" />
              <text {...textProps} x={-6} y={4} textAnchor="end">
                {y.domain()[1]}
              </text>
              <text {...textProps} x={-6} y={PANEL} textAnchor="end">
                0
              </text>
              {weeks.map((w) => {
                const h = PANEL - y(w[s.key]);
                return (
                  <Bar
                    key={w.week}
                    x={barLeft(w.week)}
                    y={PANEL - h}
                    width={barWidth}
                    height={h}
                    fill={seriesFill('activity', s.pattern, s.colour)}
                    stroke={s.colour}
                    strokeWidth={h > 0 ? 1 : 0}
                  />
                );
              })}
            </Group>
          );
        })}
        {weeks.map((w, index) => (
          <Mark
            key={w.week}
            chart="activity"
            index={index}
            active={active}
            label={labels[index]!}
            onFocusMark={onFocusMark}
          >
            <rect
              x={(x(w.week) ?? 0) - (x.step() * x.paddingInner()) / 2}
              y={top(0) - 2}
              width={x.step()}
              height={top(SERIES_ROWS.length - 1) + PANEL + 4 - top(0)}
              fill="transparent"
              stroke={index === active ? INK : 'none'}
              strokeWidth={2}
            />
          </Mark>
        ))}
        <g aria-hidden="true">
          <AxisBottom
            top={top(SERIES_ROWS.length - 1) + PANEL}
            scale={x}
            tickValues={weeks.filter((_, i) => i % every === 0).map((w) => w.week)}
            tickFormat={(week) => String(week).slice(5)}
            stroke={INK}
            tickStroke={INK}
            tickLabelProps={{ ...textProps, textAnchor: 'middle' }}
            label="Week of (month-day)"
            labelProps={{ ...textProps, textAnchor: 'middle' }}
          />
        </g>
      </Group>
    </svg>
  );
}
