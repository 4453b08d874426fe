import type { LevelReached } from '../../schemas/coverage.ts';

/**
 * The heat map's shades, lightest to darkest: a count's shade is its share of the map's largest
 * count in fifths (0 alone has none). Lightness alone orders them (never the hue), and every cell
 * also prints its count, so nothing depends on telling colours apart; each text colour passes
 * 4.5:1 on its shade.
 */
export const SHADES = [
  { background: '#ffffff', text: '#4a5a6a' },
  { background: '#e6f0f8', text: '#1b2a38' },
  { background: '#c3dbee', text: '#1b2a38' },
  { background: '#8fbadb', text: '#1b2a38' },
  { background: '#3d7aa8', text: '#ffffff' },
  { background: '#15324a', text: '#ffffff' },
] as const;

/** The shade (0–5) of `count` in a map whose largest count is `max`. */
export function shadeOf(count: number, max: number): number {
  if (count <= 0 || max <= 0) return 0;
  return Math.min(5, Math.max(1, Math.ceil((count / max) * 5)));
}

/** The counts each shade stands for, for the legend: "1–2", "3", …; `null` for a shade no count has. */
export function shadeRanges(max: number): (string | null)[] {
  return SHADES.map((_, shade) => {
    if (shade === 0) return '0';
    if (max <= 0) return null;
    const low = Math.floor(((shade - 1) / 5) * max) + 1;
    const high = Math.floor((shade / 5) * max);
    if (high < low) return null;
    return low === high ? `${low}` : `${low}–${high}`;
  });
}

/** A level reached as a cell shows it: "L3/4". */
export const levelMark = (best: LevelReached): string => `L${best.rank}/${best.of}`;

/**
 * How a cell reads aloud: what it shows first (its count and level mark, so that the name holds
 * the visible text), then the row, the column, the counts and the level in words.
 */
export function cellLabel(
  row: string,
  column: string,
  tagged: number,
  scores: number,
  best: LevelReached | null,
): string {
  const artifacts = `${tagged} ${tagged === 1 ? 'artifact' : 'artifacts'}`;
  const scored =
    scores === 0
      ? 'no scores'
      : `${scores} ${scores === 1 ? 'score' : 'scores'}, highest ${best ? `${best.label} (level ${best.rank} of ${best.of})` : 'unknown'}`;
  const shown = best ? `${tagged} ${levelMark(best)}` : `${tagged}`;
  return `${shown} — ${row}, ${column}: ${artifacts}, ${scored}`;
}
