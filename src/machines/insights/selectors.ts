import type { Agreement, Insights } from '../../schemas/insights.ts';

/** The charts of the Insights page, in page order. */
export const CHART_IDS = ['activity', 'discussion', 'levels', 'agreement'] as const;
export type ChartId = (typeof CHART_IDS)[number];

/** Each chart's title (also its table's caption and the start of its file names). */
export const CHART_TITLES: Record<ChartId, string> = {
  activity: 'Activity per week',
  discussion: 'Discussion per shared portfolio',
  levels: 'Rubric levels per criterion',
  agreement: 'Inter-rater agreement',
};

/** The files a chart downloads as. */
export type ChartFormat = 'svg' | 'png' | 'csv';

/** A chart's numbers as a table: the data table toggle and the CSV file hold exactly these. */
export interface ChartTable {
  columns: string[];
  rows: (string | number)[][];
}

/** The share of `part` in `whole` as a whole percentage (0 for an empty whole). */
export const percent = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 100));

/** A proportion shown with two decimals (`0.70`). */
export const twoPlaces = (value: number): string => value.toFixed(2);

/** Kappa as the table and labels show it; "undefined" when chance alone predicts full agreement. */
export const kappaText = (kappa: number | null): string => (kappa === null ? 'undefined' : kappa.toFixed(2));

/** Landis and Koch's words for a kappa. */
export function kappaStrength(kappa: number | null): string {
  if (kappa === null) return 'not defined';
  if (kappa < 0) return 'poor';
  if (kappa <= 0.2) return 'slight';
  if (kappa <= 0.4) return 'fair';
  if (kappa <= 0.6) return 'moderate';
  if (kappa <= 0.8) return 'substantial';
  return 'almost perfect';
}

/** A criterion as charts and tables name it: its code and label. */
export const criterionName = (c: { code: string; label: string }): string =>
  c.code ? `${c.code} ${c.label}` : c.label;

/** A chart's numbers as rows and columns. */
export function tableOf(chart: ChartId, data: Insights): ChartTable {
  switch (chart) {
    case 'activity':
      return {
        columns: ['Week of', 'Shared artifacts', 'Comments', 'Reactions', 'Scores'],
        rows: data.activity.map((w) => [w.week, w.artifacts, w.comments, w.reactions, w.scores]),
      };
    case 'discussion':
      return {
        columns: ['Shared portfolio', 'Shared artifacts', 'Comments', 'Reactions'],
        rows: data.discussion.map((p) => [p.name, p.artifacts, p.comments, p.reactions]),
      };
    case 'levels':
      return {
        columns: ['Rubric', 'Criterion', 'Level', 'Score', 'Times given', 'Share (%)'],
        rows: data.levels.flatMap((d) => {
          const total = d.levels.reduce((sum, l) => sum + l.count, 0);
          return d.levels.map((l) => [
            `${d.criterion.rubric} (version ${d.criterion.version})`,
            criterionName(d.criterion),
            l.label,
            l.score,
            l.count,
            percent(l.count, total),
          ]);
        }),
      };
    case 'agreement':
      return {
        columns: ['Rubric', 'Criterion', 'Pairs', 'Observed agreement', 'Expected agreement', 'Cohen’s kappa'],
        rows: data.agreement.map((a) => [
          `${a.criterion.rubric} (version ${a.criterion.version})`,
          criterionName(a.criterion),
          a.pairs,
          twoPlaces(a.observed),
          twoPlaces(a.expected),
          kappaText(a.kappa),
        ]),
      };
  }
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function activitySummary(data: Insights): string {
  const weeks = data.activity;
  if (weeks.length === 0) return 'Nothing was shared, discussed or scored in this range.';
  const sum = (key: 'artifacts' | 'comments' | 'reactions' | 'scores') => weeks.reduce((s, w) => s + w[key], 0);
  const busiest = weeks.reduce((best, w) => (w.comments + w.reactions > best.comments + best.reactions ? w : best));
  const discussed =
    busiest.comments + busiest.reactions > 0
      ? ` The most discussed week was the week of ${busiest.week}, with ${count(busiest.comments, 'comment')} and ${count(busiest.reactions, 'reaction')}.`
      : '';
  return (
    `From the week of ${weeks[0]!.week} to the week of ${weeks.at(-1)!.week} (${count(weeks.length, 'week')}): ` +
    `${count(sum('artifacts'), 'shared artifact')}, ${count(sum('comments'), 'comment')}, ` +
    `${count(sum('reactions'), 'reaction')} and ${count(sum('scores'), 'score')}.${discussed}`
  );
}

function discussionSummary(data: Insights): string {
  const list = data.discussion;
  if (list.length === 0) return 'No shared portfolio to show.';
  const top = list[0]!;
  const more = data.discussionMore > 0 ? ` ${count(data.discussionMore, 'more portfolio')} are not shown.` : '';
  return (
    `${count(list.length, 'shared portfolio')}, the most discussed first. ` +
    `${top.name} leads with ${count(top.comments, 'comment')} and ${count(top.reactions, 'reaction')}.${more}`
  );
}

function levelsSummary(data: Insights): string {
  if (data.levels.length === 0) return 'No rubric scores in this range.';
  const total = data.levels.reduce((s, d) => s + d.levels.reduce((t, l) => t + l.count, 0), 0);
  const lines = data.levels.slice(0, 3).map((d) => {
    const given = d.levels.reduce((t, l) => t + l.count, 0);
    const most = d.levels.reduce((best, l) => (l.count > best.count ? l : best));
    return `${criterionName(d.criterion)}: most often ${most.label} (${most.count} of ${given})`;
  });
  const rest = data.levels.length > 3 ? `; ${count(data.levels.length - 3, 'more criterion', 'more criteria')}` : '';
  return `${count(total, 'score')} on ${count(data.levels.length, 'criterion', 'criteria')}. ${lines.join('; ')}${rest}.`;
}

function agreementSummary(data: Insights): string {
  if (data.agreement.length === 0)
    return 'No moment or artifact was scored by two people on the same criterion, so there is no agreement to measure.';
  const pairs = data.agreement.reduce((s, a) => s + a.pairs, 0);
  const defined = data.agreement.filter((a): a is Agreement & { kappa: number } => a.kappa !== null);
  const range =
    defined.length === 0
      ? 'Kappa is undefined on every criterion (both scorers always gave one and the same level).'
      : `Cohen’s kappa ranges from ${kappaText(Math.min(...defined.map((a) => a.kappa)))} to ${kappaText(
          Math.max(...defined.map((a) => a.kappa)),
        )}.`;
  const best = defined.reduce<(Agreement & { kappa: number }) | null>(
    (b, a) => (b === null || a.kappa > b.kappa ? a : b),
    null,
  );
  const top = best
    ? ` Highest: ${criterionName(best.criterion)}, kappa ${kappaText(best.kappa)} (${kappaStrength(best.kappa)}, ${count(best.pairs, 'pair')}).`
    : '';
  return `${count(pairs, 'pair')} of scores on ${count(data.agreement.length, 'criterion', 'criteria')}. ${range}${top}`;
}

/** The text summary of a chart (said before it, and read with it). */
export function summaryOf(chart: ChartId, data: Insights): string {
  switch (chart) {
    case 'activity':
      return activitySummary(data);
    case 'discussion':
      return discussionSummary(data);
    case 'levels':
      return levelsSummary(data);
    case 'agreement':
      return agreementSummary(data);
  }
}

/** A chart's file name: `activity-per-week.svg`. */
export const fileNameOf = (chart: ChartId, format: ChartFormat): string =>
  `${CHART_TITLES[chart].toLowerCase().replace(/[^a-z0-9]+/g, '-')}.${format}`;

/** One row of a chart's table in words (a mark's name and the readout under the chart). */
export function rowText(table: ChartTable, index: number): string {
  const row = table.rows[index];
  if (!row) return '';
  const [first, ...rest] = row;
  return `${table.columns[0]} ${first}: ${rest.map((value, i) => `${table.columns[i + 1]} ${value}`).join(', ')}`;
}
