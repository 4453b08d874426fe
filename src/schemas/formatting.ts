/**
 * How the product writes times and dates: the one place for it, so every screen, notification,
 * e-mail and message says them the same way (decision 025). Kept beside the schemas because it
 * is the only client code the server may import; it imports nothing.
 *
 * - A time in a video (a moment, a marker, a caption cue): `0:03`, `12:34`, `1:02:03`; a range
 *   `0:03–0:10`. Caption cues keep their milliseconds: `0:03.250`.
 * - A date: `11/21/26` (mm/dd/yy, product spec §9).
 * - A date with its time: `November 21, 2026 9:05am` (the spec's long form).
 * - A time of day: `9:05am`.
 * - When something happened lately: `just now`, `5 minutes ago`, `yesterday`, then the date.
 * - A size of a file: `12 KB`, `3.4 MB`, `1.2 GB` (units of 1024).
 *
 * Dates are written in the time zone of whoever reads them (the browser's; the server's for
 * server-written text).
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const two = (n: number): string => String(n).padStart(2, '0');

/** A time in a video: `m:ss`, or `h:mm:ss` from an hour on (`0:03`, `12:34`, `1:02:03`); `milliseconds` adds `.250` when not whole. */
export function formatClock(seconds: number, { milliseconds = false }: { milliseconds?: boolean } = {}): string {
  const safe = Number.isFinite(seconds) ? Math.max(0, seconds) : 0;
  const thousandths = milliseconds ? Math.round(safe * 1000) : Math.floor(safe) * 1000;
  const whole = Math.floor(thousandths / 1000);
  const ms = thousandths % 1000;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const base = h > 0 ? `${h}:${two(m)}:${two(whole % 60)}` : `${m}:${two(whole % 60)}`;
  return ms > 0 ? `${base}.${String(ms).padStart(3, '0').replace(/0+$/, '')}` : base;
}

/** A moment of a video: `0:03`, or `0:03–0:10` for a range. */
export const formatMoment = (moment: { start: number; end: number | null }): string =>
  moment.end === null ? formatClock(moment.start) : `${formatClock(moment.start)}–${formatClock(moment.end)}`;

/**
 * Reads a time in a video as people type it: seconds (`3.5`), `m:ss` (`0:03.5`) or `h:mm:ss`;
 * `null` when it is not one.
 */
export function parseClock(text: string): number | null {
  const match = /^\s*(?:(?:(\d+):)?(\d+):)?(\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!match) return null;
  const [, hours, minutes, secs] = match;
  if (minutes !== undefined && Number(secs) >= 60) return null;
  if (hours !== undefined && Number(minutes) >= 60) return null;
  return Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + Number(secs);
}

function toDate(value: string | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date: `11/21/26` (mm/dd/yy); an empty string for an unreadable date. */
export function formatDate(value: string | Date): string {
  const date = toDate(value);
  if (!date) return '';
  return `${two(date.getMonth() + 1)}/${two(date.getDate())}/${two(date.getFullYear() % 100)}`;
}

/** Where a date is written: the reader's time zone, or UTC (text read anywhere, such as an archive). */
export interface ZoneOption {
  utc?: boolean;
}

const fields = (date: Date, utc: boolean) =>
  utc
    ? {
        year: date.getUTCFullYear(),
        month: date.getUTCMonth(),
        day: date.getUTCDate(),
        hours: date.getUTCHours(),
        minutes: date.getUTCMinutes(),
      }
    : {
        year: date.getFullYear(),
        month: date.getMonth(),
        day: date.getDate(),
        hours: date.getHours(),
        minutes: date.getMinutes(),
      };

/** A time of day: `9:05am`, `12:30pm` (`9:05am UTC` with `utc`); an empty string for an unreadable date. */
export function formatTimeOfDay(value: string | Date, { utc = false }: ZoneOption = {}): string {
  const date = toDate(value);
  if (!date) return '';
  const { hours, minutes } = fields(date, utc);
  return `${hours % 12 === 0 ? 12 : hours % 12}:${two(minutes)}${hours < 12 ? 'am' : 'pm'}${utc ? ' UTC' : ''}`;
}

/** A date with its time: `November 21, 2026 9:05am` (`… 9:05am UTC` with `utc`); an empty string for an unreadable date. */
export function formatDateTime(value: string | Date, zone: ZoneOption = {}): string {
  const date = toDate(value);
  if (!date) return '';
  const { year, month, day } = fields(date, zone.utc ?? false);
  return `${MONTHS[month]} ${day}, ${year} ${formatTimeOfDay(date, zone)}`;
}

/** When something happened, said briefly: `9:05am` today, `November 21, 2026 9:05am` another day. */
export function formatWhen(value: string | Date, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '';
  return date.toDateString() === now.toDateString() ? formatTimeOfDay(date) : formatDateTime(date);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const ago = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;

/**
 * When something happened, as people say it: `just now`, `5 minutes ago`, `3 hours ago`,
 * `yesterday`, `4 days ago`; from a week on, the date (`11/21/26`).
 */
export function formatRelative(value: string | Date, now: Date = new Date()): string {
  const then = toDate(value);
  if (!then) return '';
  const elapsed = Math.max(0, now.getTime() - then.getTime());
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return ago(Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return ago(Math.floor(elapsed / HOUR), 'hour');
  const days = Math.floor(elapsed / DAY);
  if (days === 1) return 'yesterday';
  if (days < 7) return ago(days, 'day');
  return formatDate(then);
}

const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

/** A size of a file: `12 KB` (at least 1), `3.4 MB`, `1.2 GB`, in units of 1024. */
export function formatSize(bytes: number): string {
  if (bytes < MB) return `${Math.max(1, Math.round(bytes / KB))} KB`;
  if (bytes < GB) return `${(bytes / MB).toFixed(1)} MB`;
  return `${(bytes / GB).toFixed(1)} GB`;
}

/** A time still to wait, rounded for people: `8 s`, `4 min`, `1 h 5 min`. */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
