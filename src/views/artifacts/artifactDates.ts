/** Date formats of the artifact pages (spec §9), in the viewer's time zone. */

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

function parse(value: string | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 'mm/dd/yy', e.g. 11/21/26; an empty string for an unreadable date. */
export function formatShortDate(value: string | Date): string {
  const date = parse(value);
  if (!date) return '';
  return `${two(date.getMonth() + 1)}/${two(date.getDate())}/${two(date.getFullYear() % 100)}`;
}

/** 'mmmm d, yyyy h:MMtt', e.g. November 21, 2026 9:05am; an empty string for an unreadable date. */
export function formatLongDateTime(value: string | Date): string {
  const date = parse(value);
  if (!date) return '';
  const hours = date.getHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} ${hour12}:${two(date.getMinutes())}${hours < 12 ? 'am' : 'pm'}`;
}
