import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { theme } from '../theme/theme.ts';

/**
 * What every chart of the Insights page shares (decision 057): colours that pass 3:1 against
 * white and never stand alone (each series also has its pattern and its words), the fill
 * patterns, the text style written into the SVG (so a downloaded file looks the same), the
 * width of the space a chart has, and the keyboard's way between marks.
 */

/** Series colours, each ≥ 4.5:1 on white. */
export const SERIES = {
  blue: theme.color.primary,
  red: theme.color.danger,
  green: theme.color.accent,
  purple: '#6a3d9a',
} as const;

/** Fills of the ordered levels of a criterion, light to dark (lightness, not hue, tells them apart). */
const LEVEL_RAMP = ['#e3edf5', '#a9c6dc', '#6c9bbf', '#1f5f8b', '#143f5e', '#0a2233'];

/** The fill of level `index` of `count`, and the colour its label takes on it. */
export function levelFill(index: number, count: number): { fill: string; text: string } {
  const step = count <= 1 ? 0 : Math.round((index * (LEVEL_RAMP.length - 1)) / (count - 1));
  const fill = LEVEL_RAMP[step]!;
  return { fill, text: step >= 3 ? '#ffffff' : theme.color.text };
}

export const FONT = { family: 'Arial, Helvetica, sans-serif', size: 12 } as const;
export const INK = theme.color.text;
export const GRID = '#c9d3dc';

/** Text attributes written on every SVG text (a downloaded file carries no style sheet). */
export const textProps = { fontFamily: FONT.family, fontSize: FONT.size, fill: INK } as const;

export type PatternKind = 'solid' | 'hatch' | 'dots' | 'cross';

/** The `<pattern>`s of one chart: ids are `${chart}-${kind}-${colour}`. */
export function Patterns({ chart, colours }: { chart: string; colours: readonly string[] }) {
  return (
    <defs>
      {colours.map((colour) => (
        <g key={colour}>
          <pattern
            id={patternId(chart, 'hatch', colour)}
            width="6"
            height="6"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect width="6" height="6" fill="#ffffff" />
            <rect width="3" height="6" fill={colour} />
          </pattern>
          <pattern id={patternId(chart, 'dots', colour)} width="6" height="6" patternUnits="userSpaceOnUse">
            <rect width="6" height="6" fill="#ffffff" />
            <circle cx="3" cy="3" r="1.8" fill={colour} />
          </pattern>
          <pattern id={patternId(chart, 'cross', colour)} width="6" height="6" patternUnits="userSpaceOnUse">
            <rect width="6" height="6" fill="#ffffff" />
            <path d="M0 0L6 6M6 0L0 6" stroke={colour} strokeWidth="1.5" />
          </pattern>
        </g>
      ))}
    </defs>
  );
}

const patternId = (chart: string, kind: PatternKind, colour: string) => `${chart}-${kind}-${colour.slice(1)}`;

/** The fill of a series: its colour, or its pattern in its colour. */
export const seriesFill = (chart: string, kind: PatternKind, colour: string): string =>
  kind === 'solid' ? colour : `url(#${patternId(chart, kind, colour)})`;

/** The width the chart's box has (follows the window); 640 before it is measured. */
export function useBoxWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return undefined;
    const measure = () => {
      const next = Math.floor(box.getBoundingClientRect().width);
      if (next > 0) setWidth(next);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** Shortens a label to `max` characters with an ellipsis. */
export const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export interface MarkProps {
  chart: string;
  index: number;
  /** The mark the chart's readout describes (it holds the chart's one tab stop). */
  active: number | undefined;
  label: string;
  onFocusMark: (index: number) => void;
  children: ReactNode;
}

/**
 * A mark the keyboard reaches: one tab stop per chart (the active mark, else the first), the
 * arrow keys, Home and End move between marks; focusing or pointing at one shows its numbers.
 */
export function Mark({ chart, index, active, label, onFocusMark, children }: MarkProps) {
  const move = (event: KeyboardEvent<SVGGElement>) => {
    const svg = event.currentTarget.ownerSVGElement;
    const marks = svg ? [...svg.querySelectorAll<SVGGElement>('[data-mark]')] : [];
    const steps: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    let next: number | null = null;
    if (event.key in steps) next = Math.min(marks.length - 1, Math.max(0, index + steps[event.key]!));
    if (event.key === 'Home') next = 0;
    if (event.key === 'End') next = marks.length - 1;
    if (next === null) return;
    event.preventDefault();
    marks[next]?.focus();
  };
  return (
    <g
      data-mark={index}
      data-chart-mark={chart}
      role="img"
      aria-label={label}
      tabIndex={index === (active ?? 0) ? 0 : -1}
      onFocus={() => onFocusMark(index)}
      onPointerEnter={() => onFocusMark(index)}
      onKeyDown={move}
      className="chart-mark"
    >
      {children}
    </g>
  );
}
