import { AxisBottom } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { clip, INK, Mark, Patterns, SERIES, seriesFill, textProps } from './chartKit.tsx';
import type { ChartProps } from './chartProps.ts';

const ROW = 50;
const BAR = 14;
const LEGEND = 28;

/**
 * Comments (solid) and reactions (hatched) per shared portfolio as pairs of horizontal bars, each
 * with its number at its end; the portfolio's name above its bars. A portfolio is one mark.
 */
export function DiscussionChart({ data, width, active, labels, onFocusMark }: ChartProps) {
  const items = data.discussion;
  const margin = { top: LEGEND + 8, right: 44, bottom: 36, left: 8 };
  const innerWidth = Math.max(120, width - margin.left - margin.right);
  const height = margin.top + items.length * ROW + margin.bottom;
  const max = Math.max(1, ...items.map((p) => Math.max(p.comments, p.reactions)));
  const x = scaleLinear({ domain: [0, max], range: [0, innerWidth], nice: true });
  const y = scaleBand({ domain: items.map((p) => String(p.id)), range: [0, items.length * ROW] });
  const comments = SERIES.blue;
  const reactions = SERIES.green;
  const legend = [
    { label: 'Comments', fill: comments, colour: comments },
    { label: 'Reactions (hatched)', fill: seriesFill('discussion', 'hatch', reactions), colour: reactions },
  ];
  return (
    <svg
      data-chart="discussion"
      width={width}
      height={height}
      role="group"
      aria-label="Discussion per shared portfolio"
    >
      <Patterns chart="discussion" colours={[reactions]} />
      <g aria-hidden="true">
        {legend.map((item, i) => (
          <g key={item.label} transform={`translate(${margin.left + i * 150}, 8)`}>
            <rect width={16} height={12} fill={item.fill} stroke={item.colour} />
            <text {...textProps} x={22} y={10}>
              {item.label}
            </text>
          </g>
        ))}
      </g>
      <Group left={margin.left} top={margin.top}>
        {items.map((p, index) => {
          const top = y(String(p.id)) ?? 0;
          const bars = [
            { value: p.comments, fill: comments, colour: comments, offset: 14 },
            {
              value: p.reactions,
              fill: seriesFill('discussion', 'hatch', reactions),
              colour: reactions,
              offset: 14 + BAR + 2,
            },
          ];
          return (
            <Mark
              key={p.id}
              chart="discussion"
              index={index}
              active={active}
              label={labels[index]!}
              onFocusMark={onFocusMark}
            >
              <rect
                x={-4}
                y={top - 2}
                width={innerWidth + margin.right}
                height={ROW}
                fill="transparent"
                stroke={index === active ? INK : 'none'}
                strokeWidth={2}
              />
              <text {...textProps} x={0} y={top + 10} fontWeight={700}>
                {clip(p.name, Math.max(16, Math.floor(innerWidth / 7.5)))}
              </text>
              {bars.map((b) => (
                <g key={b.offset}>
                  <Bar
                    x={0}
                    y={top + b.offset}
                    width={Math.max(1, x(b.value))}
                    height={BAR}
                    fill={b.fill}
                    stroke={b.colour}
                  />
                  <text {...textProps} x={x(b.value) + 4} y={top + b.offset + 11}>
                    {b.value}
                  </text>
                </g>
              ))}
            </Mark>
          );
        })}
        <g aria-hidden="true">
          <AxisBottom
            top={items.length * ROW}
            scale={x}
            tickValues={x.ticks(Math.max(2, Math.floor(innerWidth / 80))).filter(Number.isInteger)}
            tickFormat={(v) => String(v)}
            stroke={INK}
            tickStroke={INK}
            tickLabelProps={{ ...textProps, textAnchor: 'middle' }}
          />
        </g>
      </Group>
    </svg>
  );
}
