import type { Cue } from '#schemas/moments';
import { CAPTION_CUE_TEXT_MAX, CAPTION_CUES_MAX, MOMENT_MAX_SECONDS } from '#schemas/moments';

/**
 * WebVTT and SRT caption files: a strict parser of both (SRT becomes WebVTT cues), the check of
 * cue text (only the WebVTT cue tags b, i, u, v, c, lang, ruby and rt; never other markup), and
 * the WebVTT serialisation. Cue times are seconds with millisecond precision.
 */

/** A caption file or cue that breaks a rule; `line` is 1-based in the file, when known. */
export class CaptionError extends Error {
  override name = 'CaptionError';
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `Line ${line}: ${message}`);
  }
}

/** The cue tags WebVTT defines (class names after a dot; `v` and `lang` take an annotation). */
const CUE_TAGS = new Set(['b', 'i', 'u', 'v', 'c', 'lang', 'ruby', 'rt']);
const ANNOTATED = new Set(['v', 'lang']);
/** `<name.class.class annotation>` or `</name>`; anything else starting with `<` is refused. */
const TAG = /^<(\/)?([a-z]+)((?:\.[A-Za-z0-9_-]+)*)(?:([ \t])([^<>\n]*))?>/;
/** A character reference WebVTT knows: named, decimal or hexadecimal. */
const REFERENCE = /^&(?:amp|lt|gt|lrm|rlm|nbsp|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});/;

/** `HH:MM:SS.mmm` (hours optional in WebVTT, at least two digits when present). */
const VTT_TIME = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;
/** SRT's `HH:MM:SS,mmm` (a full stop is accepted for the comma, as many tools write it). */
const SRT_TIME = /^(\d{1,3}):([0-5]\d):([0-5]\d)[,.](\d{3})$/;

const seconds = (h: string | undefined, m: string, s: string, ms: string) =>
  (Number(h ?? 0) * 3600 * 1000 + Number(m) * 60 * 1000 + Number(s) * 1000 + Number(ms)) / 1000;

function parseTime(text: string, pattern: RegExp, line: number): number {
  const match = pattern.exec(text);
  if (!match) throw new CaptionError(`"${text.slice(0, 40)}" is not a caption time (hh:mm:ss.mmm).`, line);
  const value = seconds(match[1], match[2]!, match[3]!, match[4]!);
  if (value > MOMENT_MAX_SECONDS) throw new CaptionError('A caption time cannot be more than 24 hours.', line);
  return value;
}

/**
 * Checks one cue's text and gives it back in canonical form: line breaks as `\n`, a bare `&` as
 * `&amp;`. @throws CaptionError for empty text, text over the limit, an empty line or `-->`
 * inside it, and any markup other than the WebVTT cue tags (a `<script>`, an `<img>`, an
 * attribute on a tag, an unclosed `<`).
 */
export function cleanCueText(raw: string, line?: number): string {
  const text = raw.replace(/\r\n?/g, '\n').replace(/^\n+|\n+$/g, '');
  if (text.trim().length === 0) throw new CaptionError('A caption cannot be empty.', line);
  if (text.length > CAPTION_CUE_TEXT_MAX)
    throw new CaptionError(`A caption can be at most ${CAPTION_CUE_TEXT_MAX} characters.`, line);
  if (/\n[ \t]*\n/.test(text)) throw new CaptionError('A caption cannot contain an empty line.', line);
  if (text.includes('-->')) throw new CaptionError('A caption cannot contain "-->".', line);
  if (/\p{Cc}/u.test(text.replace(/[\n\t]/g, '')))
    throw new CaptionError('A caption cannot contain control characters.', line);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '<') {
      const rest = text.slice(i);
      const tag = TAG.exec(rest);
      const name = tag?.[2];
      if (!tag || !name || !CUE_TAGS.has(name)) {
        const shown = /^<\/?([A-Za-z][A-Za-z0-9-]*)/.exec(rest)?.[1];
        if (shown && CUE_TAGS.has(shown)) throw new CaptionError(`The tag <${shown}> is not closed with ">".`, line);
        throw new CaptionError(
          shown
            ? `The tag <${shown}> is not allowed in captions. Only b, i, u, v, c, lang, ruby and rt are.`
            : 'A "<" in a caption must start a caption tag; write &lt; for the character.',
          line,
        );
      }
      const closing = tag[1] === '/';
      const hasAnnotation = tag[4] !== undefined;
      if (closing && (tag[3] || hasAnnotation))
        throw new CaptionError(`The closing tag </${name}> cannot have classes or text.`, line);
      if (!closing && hasAnnotation && !ANNOTATED.has(name)) {
        throw new CaptionError(
          `The tag <${name}> cannot have attributes. Only <v> and <lang> take a name after a space.`,
          line,
        );
      }
      if (!closing && name === 'lang' && !(tag[5] ?? '').trim())
        throw new CaptionError('The tag <lang> needs a language, such as <lang es>.', line);
      out += tag[0];
      i += tag[0].length;
      continue;
    }
    if (ch === '&') {
      const reference = REFERENCE.exec(text.slice(i));
      if (reference) {
        out += reference[0];
        i += reference[0].length;
      } else {
        out += '&amp;';
        i += 1;
      }
      continue;
    }
    out += ch;
    i += 1;
  }
  return out;
}

/** Checks a list of cues: limits, times within the video (`duration`, when known), end after start. Sorts by start. */
export function checkCues(cues: readonly Cue[], duration: number | null): Cue[] {
  if (cues.length > CAPTION_CUES_MAX) throw new CaptionError(`A track can have at most ${CAPTION_CUES_MAX} captions.`);
  const checked = cues.map((cue, index) => {
    const where = `Caption ${index + 1}`;
    if (!Number.isFinite(cue.start) || !Number.isFinite(cue.end) || cue.start < 0)
      throw new CaptionError(`${where} has a time that is not valid.`);
    if (cue.end <= cue.start) throw new CaptionError(`${where} must end after it starts.`);
    if (duration !== null && cue.end > duration + END_TOLERANCE) {
      throw new CaptionError(
        `${where} ends at ${vttTime(cue.end)}, after the end of the video (${vttTime(duration)}).`,
      );
    }
    let text: string;
    try {
      text = cleanCueText(cue.text);
    } catch (error) {
      throw error instanceof CaptionError ? new CaptionError(`${where}: ${error.message}`) : error;
    }
    return { start: roundMs(cue.start), end: roundMs(cue.end), text };
  });
  return checked
    .map((cue, index) => ({ cue, index }))
    .sort((a, b) => a.cue.start - b.cue.start || a.index - b.index)
    .map((x) => x.cue);
}

/**
 * Cues of an uploaded file fitted to a video of `duration` seconds: a cue ending after the end is
 * cut to end there, a cue starting at or after the end is left out. Returns the cues and a
 * notice saying what changed (`null` when nothing did, or the length is unknown).
 */
export function clipToDuration(cues: readonly Cue[], duration: number | null): { cues: Cue[]; notice: string | null } {
  if (duration === null) return { cues: [...cues], notice: null };
  let clipped = 0;
  let dropped = 0;
  const kept: Cue[] = [];
  for (const cue of cues) {
    if (cue.start >= duration) {
      dropped += 1;
    } else if (cue.end > duration + END_TOLERANCE) {
      clipped += 1;
      kept.push({ ...cue, end: duration });
    } else {
      kept.push(cue);
    }
  }
  const parts = [
    ...(clipped > 0
      ? [
          `${clipped} ${clipped === 1 ? 'caption ended' : 'captions ended'} after the end of the video (${vttTime(duration)}) and ${clipped === 1 ? 'was' : 'were'} cut to end there.`,
        ]
      : []),
    ...(dropped > 0
      ? [
          `${dropped} ${dropped === 1 ? 'caption starts' : 'captions start'} after the end of the video and ${dropped === 1 ? 'was' : 'were'} left out.`,
        ]
      : []),
  ];
  return { cues: kept, notice: parts.length > 0 ? parts.join(' ') : null };
}

/** How far past a video's reported length a time may be (containers round their length). */
export const END_TOLERANCE = 0.05;

const roundMs = (value: number) => Math.round(value * 1000) / 1000;

function lines(source: string): string[] {
  return source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
}

function checkSource(source: string): void {
  if (source.includes('\u0000')) throw new CaptionError('The caption file is not a text file.');
}

/** The blocks of lines between empty lines, from line index `from` on, each with the index of its first line. */
function* blocks(all: readonly string[], from = 0): Generator<{ start: number; block: string[] }> {
  let i = from;
  while (i < all.length) {
    if (all[i]!.trim() === '') {
      i += 1;
      continue;
    }
    const start = i;
    const block: string[] = [];
    while (i < all.length && all[i]!.trim() !== '') block.push(all[i++]!);
    yield { start, block };
  }
}

/**
 * Adds to `cues` the cue of a timing line (`match`: its start and end, written as `timePattern`
 * reads them) and its text lines; `lineNo` is the timing line's number.
 * @throws CaptionError where the cue ends before it starts, has no text, or is one too many.
 */
function addCue(
  cues: Cue[],
  match: RegExpExecArray,
  timePattern: RegExp,
  text: readonly string[],
  lineNo: number,
): void {
  const cueStart = parseTime(match[1]!, timePattern, lineNo);
  const cueEnd = parseTime(match[2]!, timePattern, lineNo);
  if (cueEnd <= cueStart) throw new CaptionError('A caption must end after it starts.', lineNo);
  if (text.length === 0) throw new CaptionError('A caption has no text.', lineNo);
  cues.push({ start: cueStart, end: cueEnd, text: cleanCueText(text.join('\n'), lineNo + 1) });
  if (cues.length > CAPTION_CUES_MAX) throw new CaptionError(`A track can have at most ${CAPTION_CUES_MAX} captions.`);
}

/**
 * Parses a WebVTT file strictly: the `WEBVTT` signature, then blocks separated by empty lines:
 * `NOTE`, `STYLE` and `REGION` blocks (skipped) and cues (an optional identifier, the timing
 * line `start --> end [settings]`, one or more lines of cue text). Cue settings are not kept.
 * @throws CaptionError naming the line of the first problem.
 */
export function parseWebVtt(source: string): Cue[] {
  checkSource(source);
  const all = lines(source);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(all[0] ?? '')) throw new CaptionError('A WebVTT file must start with "WEBVTT".', 1);
  const cues: Cue[] = [];
  let i = 1;
  // The header continues to the first empty line.
  while (i < all.length && all[i] !== '') {
    if (all[i]!.includes('-->'))
      throw new CaptionError('The "WEBVTT" line must be followed by an empty line before the first caption.', i + 1);
    i += 1;
  }
  for (const { start, block } of blocks(all, i)) {
    const first = block[0]!;
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(first)) {
      if (block.some((l) => l.includes('-->')))
        throw new CaptionError(`A ${first.split(/[ \t]/)[0]} block cannot contain "-->".`, start + 1);
      continue;
    }
    const timingAt = first.includes('-->') ? 0 : 1;
    const timing = block[timingAt];
    if (timing === undefined || !timing.includes('-->')) {
      throw new CaptionError(
        'Expected a caption time line such as "00:00:01.000 --> 00:00:04.000".',
        start + timingAt + 1,
      );
    }
    const lineNo = start + timingAt + 1;
    const match = /^(\S+)[ \t]+-->[ \t]+(\S+)(?:[ \t]+(.*))?$/.exec(timing);
    if (!match) throw new CaptionError('A caption time line is "start --> end", with spaces around the arrow.', lineNo);
    addCue(cues, match, VTT_TIME, block.slice(timingAt + 1), lineNo);
  }
  return cues;
}

/**
 * Parses an SRT file strictly (blocks of a number, `HH:MM:SS,mmm --> HH:MM:SS,mmm` and text)
 * into WebVTT cues; SRT's `<i>`, `<b>` and `<u>` are WebVTT tags too, other markup is refused.
 * @throws CaptionError naming the line of the first problem.
 */
export function parseSrt(source: string): Cue[] {
  checkSource(source);
  const all = lines(source);
  const cues: Cue[] = [];
  for (const { start, block } of blocks(all)) {
    if (!/^\d+$/.test(block[0]!.trim())) throw new CaptionError('Expected the number of a caption.', start + 1);
    const timing = block[1];
    const lineNo = start + 2;
    const match = timing === undefined ? null : /^\s*(\S+)[ \t]+-->[ \t]+(\S+)(?:[ \t]+.*)?$/.exec(timing);
    if (!match) throw new CaptionError('Expected a caption time line such as "00:00:01,000 --> 00:00:04,000".', lineNo);
    addCue(cues, match, SRT_TIME, block.slice(2), lineNo);
  }
  if (cues.length === 0) throw new CaptionError('The SRT file has no captions.');
  return cues;
}

/** A time as WebVTT writes it: `HH:MM:SS.mmm`. */
export function vttTime(value: number): string {
  const ms = Math.max(0, Math.round(value * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const rest = ms % 1000;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(rest).padStart(3, '0')}`;
}

/** Writes cues (already checked) as a WebVTT file; `title` goes on the signature line. */
export function serializeWebVtt(cues: readonly Cue[], title?: string): string {
  const header = title ? `WEBVTT - ${title.replace(/[\r\n]+/g, ' ').replace(/-->/g, '→')}` : 'WEBVTT';
  return `${[header, ...cues.map((cue) => `${vttTime(cue.start)} --> ${vttTime(cue.end)}\n${cue.text}`)].join('\n\n')}\n`;
}

/** Escapes plain text (a comment) for use as WebVTT cue text. */
export function escapeCueText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\n[ \t]*(?=\n)/g, '\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
}
