import { Group } from '@visx/group';
import { scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { criterionName } from '../../machines/insights/selectors.ts';
import { clip, INK, levelFill, Mark, textProps } from './chartKit.tsx';
import type { ChartProps } from './chartProps.ts';

const ROW = 48;
const BAR = 22;

/**
 * For each criterion a bar of 100 %: its levels from the lowest (lightest, left) to the highest
 * (darkest), outlined, each with its count inside when it fits. Every level of every criterion
 * is one mark, in the order of the table's rows.
 */
export function LevelsChart({ data, width, active, labels, onFocusMark }: ChartProps) {
  // The legend names positions (the labels differ between criteria; each bar writes its own).
  const most = Math.max(...data.levels.map((d) => d.levels.length));
  const legendLevels = Array.from({ length: most }, (_, i) =>
    i === 0 ? '1 (lowest)' : i === most - 1 ? `${most} (highest)` : String(i + 1),
  );
  const legendRows = Math.ceil(legendLevels.length / Math.max(1, Math.floor((width - 16) / 130)));
  const margin = { top: 28 + legendRows * 20, right: 16, bottom: 12, left: 8 };
  const innerWidth = Math.max(120, width - margin.left - margin.right);
  const height = margin.top + data.levels.length * ROW + margin.bottom;
  const perRow = Math.max(1, Math.floor((width - 16) / 130));
  // Each level's mark index: its row in the chart's table (criteria in order, their levels in order).
  const firstIndex = data.levels.map((_, r) => data.levels.slice(0, r).reduce((n, d) => n + d.levels.length, 0));
  return (
    <svg data-chart="levels" width={width} height={height} role="group" aria-label="Rubric levels per criterion">
      <g aria-hidden="true">
        <text {...textProps} x={margin.left} y={14} fontWeight={700}>
          Levels, lowest (lightest) to highest (darkest):
        </text>
        {legendLevels.map((level, i) => {
          const { fill } = levelFill(i, legendLevels.length);
          return (
            <g
              key={level}
              transform={`translate(${margin.left + (i % perRow) * 130}, ${22 + Math.floor(i / perRow) * 20})`}
            >
              <rect width={16} height={12} fill={fill} stroke={INK} />
              <text {...textProps} x={22} y={10}>
                {level}
              </text>
            </g>
          );
        })}
      </g>
      <Group left={margin.left} top={margin.top}>
        {data.levels.map((d, row) => {
          const total = d.levels.reduce((sum, l) => sum + l.count, 0);
          const x = scaleLinear({ domain: [0, Math.max(1, total)], range: [0, innerWidth] });
          const top = row * ROW;
          return (
            <g key={d.criterion.id}>
              <text {...textProps} x={0} y={top + 12} fontWeight={700} aria-hidden="true">
                {`${clip(criterionName(d.criterion), Math.max(20, Math.floor(innerWidth / 7.5) - 10))} (${total})`}
              </text>
              {d.levels.map((level, i) => {
                const index = firstIndex[row]! + i;
                const start = d.levels.slice(0, i).reduce((n, l) => n + l.count, 0);
                const left = x(start);
                const w = x(start + level.count) - left;
                const { fill, text } = levelFill(i, d.levels.length);
                return (
                  <Mark
                    key={level.id}
                    chart="levels"
                    index={index}
                    active={active}
                    label={labels[index]!}
                    onFocusMark={onFocusMark}
                  >
                    <Bar
                      x={left}
                      y={top + 18}
                      width={Math.max(0, w)}
                      height={BAR}
                      fill={fill}
                      stroke={INK}
                      strokeWidth={w > 0 ? 1 : 0}
                    />
                    {index === active ? (
                      <rect
                        x={left - 2}
                        y={top + 16}
                        width={Math.max(4, w + 4)}
                        height={BAR + 4}
                        fill="none"
                        stroke={INK}
                        strokeWidth={2}
                      />
                    ) : null}
                    {w >= 26 ? (
                      <text {...textProps} fill={text} x={left + w / 2} y={top + 33} textAnchor="middle">
                        {w >= (level.label.length + 4) * 7 ? `${level.label} ${level.count}` : level.count}
                      </text>
                    ) : null}
                  </Mark>
                );
              })}
            </g>
          );
        })}
      </Group>
    </svg>
  );
}
