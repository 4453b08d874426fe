import { formatClock, parseClock } from '../../schemas/formatting.ts';
import { CAPTION_CUE_TEXT_MAX, CAPTION_CUES_MAX, type Cue } from '../../schemas/moments.ts';

/** A cue as the editor holds it: times as typed (`0:03.5`, or seconds), and its text. */
export interface CueDraft {
  /** Tells rows apart while cues are added and removed. */
  key: number;
  start: string;
  end: string;
  text: string;
}

/** A track as a local draft keeps it: the label, the language and each cue's times and text as typed. */
export interface CaptionsDraft {
  label: string;
  language: string;
  cues: Omit<CueDraft, 'key'>[];
}

/** The track kept by a local draft (as `fingerprint` wrote it: `[label, language, [[start, end, text], …]]`); `null` for anything else. */
export function parseCaptionsDraft(text: string): CaptionsDraft | null {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value) || value.length !== 3) return null;
    const [label, language, cues] = value as unknown[];
    if (typeof label !== 'string' || typeof language !== 'string' || !Array.isArray(cues)) return null;
    const isCue = (cue: unknown): cue is [string, string, string] =>
      Array.isArray(cue) && cue.length === 3 && cue.every((part) => typeof part === 'string');
    if (!cues.every(isCue)) return null;
    return { label, language, cues: cues.map(([start, end, cueText]) => ({ start, end, text: cueText })) };
  } catch {
    return null;
  }
}

/** One problem of the track, for one cue (`index`) or the whole track (`index: null`). */
export interface CueProblem {
  index: number | null;
  field: 'start' | 'end' | 'text' | 'label' | 'language' | 'cues';
  message: string;
}

/** A time as the editor shows it: as every time in a video is written, with its milliseconds (`0:03.25`). */
export const showTime = (seconds: number): string => formatClock(seconds, { milliseconds: true });

/** The drafts of a track's cues. */
export const toDrafts = (cues: readonly Cue[]): CueDraft[] =>
  cues.map((c, i) => ({ key: i + 1, start: showTime(c.start), end: showTime(c.end), text: c.text }));

const seconds = parseClock;

/** The cues to save (call only when `cueProblems` found none). */
export const toCues = (drafts: readonly CueDraft[]): Cue[] =>
  drafts.map((d) => ({ start: seconds(d.start) ?? 0, end: seconds(d.end) ?? 0, text: d.text.trim() }));

/** Everything that stops the track from being saved, in reading order. */
export function cueProblems(
  track: { label: string; language: string; cues: readonly CueDraft[] },
  duration: number | null,
): CueProblem[] {
  const problems: CueProblem[] = [];
  if (track.label.trim() === '')
    problems.push({ index: null, field: 'label', message: 'Please give the track a label.' });
  if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(track.language.trim())) {
    problems.push({ index: null, field: 'language', message: 'Please give a language tag such as en or es-MX.' });
  }
  if (track.cues.length > CAPTION_CUES_MAX)
    problems.push({ index: null, field: 'cues', message: `A track can have at most ${CAPTION_CUES_MAX} captions.` });
  track.cues.forEach((cue, index) => {
    const n = index + 1;
    const start = seconds(cue.start);
    const end = seconds(cue.end);
    if (start === null)
      problems.push({ index, field: 'start', message: `Caption ${n}: the start must be a time such as 0:03.5.` });
    else if (duration !== null && start > duration)
      problems.push({ index, field: 'start', message: `Caption ${n}: the start is past the end of the video.` });
    if (end === null)
      problems.push({ index, field: 'end', message: `Caption ${n}: the end must be a time such as 0:03.5.` });
    else if (start !== null && end <= start)
      problems.push({ index, field: 'end', message: `Caption ${n}: the end must be after the start.` });
    else if (duration !== null && end > duration + 0.001)
      problems.push({ index, field: 'end', message: `Caption ${n}: the end is past the end of the video.` });
    if (cue.text.trim() === '')
      problems.push({ index, field: 'text', message: `Caption ${n}: the text cannot be empty.` });
    else if (cue.text.length > CAPTION_CUE_TEXT_MAX)
      problems.push({
        index,
        field: 'text',
        message: `Caption ${n}: the text can be at most ${CAPTION_CUE_TEXT_MAX} characters.`,
      });
  });
  return problems;
}
