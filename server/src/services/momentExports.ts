import { MOMENT_CUE_SECONDS } from '#schemas/moments';
import { escapeCueText, serializeWebVtt, vttTime } from '../media/captions.ts';

/** The lines of a moments CSV (for `sendCsv`). */
export const MOMENTS_CSV_HEADER = [
  'comment id',
  'author',
  'start (seconds)',
  'start',
  'end (seconds)',
  'end',
  'text',
  'created_at',
] as const;

/** The rows of a moments CSV: times as seconds and as `HH:MM:SS.mmm`, dates in ISO UTC. */
export async function* momentCsvRows(
  comments: readonly { id: number; author: string; start: number; end: number | null; text: string; createdAt: Date }[],
) {
  for (const c of comments) {
    yield [
      c.id,
      c.author,
      c.start,
      vttTime(c.start),
      c.end ?? '',
      c.end === null ? '' : vttTime(c.end),
      c.text,
      c.createdAt.toISOString(),
    ] as const;
  }
}

/** The moment comments as a WebVTT file: each comment a cue (a time without an end lasts four seconds). */
export function momentsVtt(
  title: string,
  comments: readonly { author: string; start: number; end: number | null; text: string }[],
): string {
  const cues = comments.map((c) => ({
    start: c.start,
    end: c.end !== null && c.end > c.start ? c.end : c.start + MOMENT_CUE_SECONDS,
    text: `<v ${escapeCueText(c.author)}>${escapeCueText(c.text)}`,
  }));
  return serializeWebVtt(cues, title);
}
