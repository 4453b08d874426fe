import { AxisBottom } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { criterionName, kappaText } from '../../machines/insights/selectors.ts';
import { clip, GRID, INK, Mark, Patterns, SERIES, seriesFill, textProps } from './chartKit.tsx';
import type { ChartProps } from './chartProps.ts';

const ROW = 58;
const BAR = 16;

/**
 * Cohen's kappa per criterion as a bar from 0 (left of it when negative), on a scale to 1 with
 * lines at Landis and Koch's steps (0.2 … 0.8); the kappa and the number of pairs in words under
 * each bar. A criterion is one mark.
 */
export function AgreementChart({ data, width, active, labels, onFocusMark }: ChartProps) {
  const items = data.agreement;
  const margin = { top: 8, right: 16, bottom: 52, left: 12 };
  const innerWidth = Math.max(120, width - margin.left - margin.right);
  const height = margin.top + items.length * ROW + margin.bottom;
  const low = Math.min(0, ...items.map((a) => a.kappa ?? 0));
  const x = scaleLinear({ domain: [Math.floor(low * 5) / 5, 1], range: [0, innerWidth] });
  const steps = [0, 0.2, 0.4, 0.6, 0.8, 1].filter((v) => v >= x.domain()[0]!);
  const fill = seriesFill('agreement', 'hatch', SERIES.blue);
  return (
    <svg data-chart="agreement" width={width} height={height} role="group" aria-label="Inter-rater agreement">
      <Patterns chart="agreement" colours={[SERIES.blue]} />
      <Group left={margin.left} top={margin.top}>
        <g aria-hidden="true">
          {steps.map((v) => (
            <line
              key={v}
              x1={x(v)}
              x2={x(v)}
              y1={0}
              y2={items.length * ROW}
              stroke={v === 0 ? INK : GRID}
              strokeDasharray={v === 0 ? undefined : '3 3'}
            />
          ))}
        </g>
        {items.map((a, index) => {
          const top = index * ROW;
          const kappa = a.kappa;
          const from = x(Math.min(0, kappa ?? 0));
          const to = x(Math.max(0, kappa ?? 0));
          const words = `kappa ${kappaText(kappa)}, ${a.pairs} ${a.pairs === 1 ? 'pair' : 'pairs'}`;
          return (
            <Mark
              key={a.criterion.id}
              chart="agreement"
              index={index}
              active={active}
              label={labels[index]!}
              onFocusMark={onFocusMark}
            >
              <rect
                x={-4}
                y={top - 2}
                width={innerWidth + 8}
                height={ROW}
                fill="transparent"
                stroke={index === active ? INK : 'none'}
                strokeWidth={2}
              />
              <text {...textProps} x={0} y={top + 10} fontWeight={700}>
                {clip(
                  `${criterionName(a.criterion)} (${a.criterion.rubric})`,
                  Math.max(20, Math.floor(innerWidth / 7.5)),
                )}
              </text>
              {kappa !== null ? (
                <Bar
                  x={from}
                  y={top + 16}
                  width={Math.max(1, to - from)}
                  height={BAR}
                  fill={fill}
                  stroke={SERIES.blue}
                />
              ) : null}
              <text {...textProps} x={0} y={top + 46}>
                {words}
              </text>
            </Mark>
          );
        })}
        <g aria-hidden="true">
          <AxisBottom
            top={items.length * ROW}
            scale={x}
            tickValues={steps}
            tickFormat={(v) => Number(v).toFixed(1)}
            stroke={INK}
            tickStroke={INK}
            tickLabelProps={{ ...textProps, textAnchor: 'middle' }}
            label="Cohen’s kappa (0 = chance, 1 = full agreement)"
            labelProps={{ ...textProps, textAnchor: 'middle' }}
          />
        </g>
      </Group>
    </svg>
  );
}
