import type { Insights } from '../../schemas/insights.ts';

/** What every chart of the Insights page is drawn from. */
export interface ChartProps {
  data: Insights;
  /** The width the chart has, in pixels. */
  width: number;
  /** The mark the readout describes. */
  active: number | undefined;
  /** Each mark's name: its row of the chart's table in words. */
  labels: readonly string[];
  onFocusMark: (index: number) => void;
}
