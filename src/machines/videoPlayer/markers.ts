import { REACTIONS } from '../../schemas/catalog.ts';
import { formatClock, formatMoment } from '../../schemas/formatting.ts';

/** Something said at a moment of one video: a comment, a reaction, a private note or a rubric score. */
export interface MomentMark {
  kind: 'comment' | 'reaction' | 'note' | 'score';
  /** The comment's or note's id (what a marker highlights); a reaction's own id. */
  id: number;
  start: number;
  end: number | null;
  /** Who said it ('You' for one's private notes). */
  who: string;
  /** A reaction's value; a score's level and criterion ('Proficient on Developing and using models'). */
  value?: string;
}

/** One marker on the timeline: one mark, or several close together (a cluster). */
export interface Marker {
  key: string;
  /** Where it sits and where a click seeks: the first mark's start. */
  start: number;
  /** Its position on the timeline, 0–100 (%). */
  left: number;
  marks: readonly MomentMark[];
  /** Its accessible name, e.g. 'Comment by Ana at 0:03'. */
  label: string;
  /** The comment or note it highlights (the first in it), if any. */
  targetId: number | null;
}

const reactionMeaning = (value: string | undefined): string =>
  REACTIONS.find((r) => r.value === value)?.meaning ?? 'Reaction';

/**
 * One mark in words: 'Comment by Ana at 0:03', 'Exemplar reaction by Ana at 0:03', 'Your note at
 * 0:03', 'Score Proficient on Developing and using models by Lee at 0:03'.
 */
export function describeMark(mark: MomentMark): string {
  const at = formatMoment(mark);
  if (mark.kind === 'note') return `Your note at ${at}`;
  if (mark.kind === 'score') return `Score ${mark.value ?? ''} by ${mark.who} at ${at}`;
  if (mark.kind === 'reaction') return `${reactionMeaning(mark.value)} reaction by ${mark.who} at ${at}`;
  return `Comment by ${mark.who} at ${at}`;
}

/** Marks closer than this share of the video (or 1 s, whichever is more) become one marker. */
export const CLUSTER_SHARE = 0.02;

/**
 * The timeline's markers, in time order: marks within `CLUSTER_SHARE` of the video's length of
 * the cluster's first mark are clustered into one marker ('3 moments from 0:03: …').
 */
export function clusterMarks(marks: readonly MomentMark[], duration: number | null): Marker[] {
  const sorted = [...marks].sort((a, b) => a.start - b.start || a.id - b.id);
  const span = duration && duration > 0 ? duration : Math.max(1, ...sorted.map((m) => m.end ?? m.start));
  const gap = Math.max(1, span * CLUSTER_SHARE);
  const groups: MomentMark[][] = [];
  for (const mark of sorted) {
    const last = groups.at(-1);
    if (last && mark.start - last[0]!.start <= gap) last.push(mark);
    else groups.push([mark]);
  }
  return groups.map((group) => {
    const first = group[0]!;
    const target = group.find((m) => m.kind === 'comment' || m.kind === 'note') ?? null;
    const label =
      group.length === 1
        ? describeMark(first)
        : `${group.length} moments from ${formatClock(first.start)}: ${group.map(describeMark).join('; ')}`;
    return {
      key: group.map((m) => `${m.kind}-${m.id}`).join('+'),
      start: first.start,
      left: Math.min(100, Math.max(0, (first.start / span) * 100)),
      marks: group,
      label,
      targetId: target?.id ?? null,
    };
  });
}
