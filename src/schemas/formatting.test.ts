import { describe, expect, it } from 'vitest';
import {
  formatClock,
  formatDate,
  formatDateTime,
  formatMoment,
  formatRelative,
  formatSize,
  formatTimeLeft,
  formatTimeOfDay,
  formatWhen,
  parseClock,
} from './formatting.ts';

const now = new Date('2026-11-25T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe('formatClock and formatMoment: one way to write a time in a video', () => {
  it('writes m:ss below an hour and h:mm:ss from an hour on, never a leading zero on the first unit', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(3)).toBe('0:03');
    expect(formatClock(192.9)).toBe('3:12');
    expect(formatClock(754)).toBe('12:34');
    expect(formatClock(3599.99)).toBe('59:59');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatClock(-4)).toBe('0:00');
    expect(formatClock(Number.NaN)).toBe('0:00');
  });

  it('keeps milliseconds only when asked and only when they are not whole', () => {
    expect(formatClock(3.25, { milliseconds: true })).toBe('0:03.25');
    expect(formatClock(3.5, { milliseconds: true })).toBe('0:03.5');
    expect(formatClock(10, { milliseconds: true })).toBe('0:10');
    expect(formatClock(59.9996, { milliseconds: true })).toBe('1:00');
  });

  it('writes a range with an en dash', () => {
    expect(formatMoment({ start: 192, end: 220 })).toBe('3:12–3:40');
    expect(formatMoment({ start: 5, end: null })).toBe('0:05');
  });

  it('reads back what it writes, and plain seconds', () => {
    for (const t of [0, 3.25, 192, 3723.5]) expect(parseClock(formatClock(t, { milliseconds: true }))).toBe(t);
    expect(parseClock('3.5')).toBe(3.5);
    expect(parseClock(' 1:02:03 ')).toBe(3723);
    expect(parseClock('0:75')).toBeNull();
    expect(parseClock('1:75:00')).toBeNull();
    expect(parseClock('abc')).toBeNull();
    expect(parseClock('')).toBeNull();
  });
});

describe('dates', () => {
  it('writes a date as mm/dd/yy and a date with its time in the long form', () => {
    expect(formatDate(new Date(2009, 1, 3))).toBe('02/03/09');
    expect(formatDateTime(new Date(2026, 10, 21, 9, 5))).toBe('November 21, 2026 9:05am');
    expect(formatDateTime(new Date(2026, 0, 1, 0, 0))).toBe('January 1, 2026 12:00am');
    expect(formatTimeOfDay(new Date(2026, 6, 4, 12, 30))).toBe('12:30pm');
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('writes UTC when asked (text read anywhere)', () => {
    expect(formatDateTime('2026-03-04T21:05:00.000Z', { utc: true })).toBe('March 4, 2026 9:05pm UTC');
  });

  it('says when with the time alone today and the whole date another day', () => {
    const today = new Date(2026, 10, 25, 15, 0);
    expect(formatWhen(new Date(2026, 10, 25, 10, 42), today)).toBe('10:42am');
    expect(formatWhen(new Date(2026, 10, 24, 22, 7), today)).toBe('November 24, 2026 10:07pm');
  });
});

describe('formatRelative', () => {
  it('says how long ago, in the largest whole unit, up to a week', () => {
    expect(formatRelative(ago(20_000), now)).toBe('just now');
    expect(formatRelative(ago(60_000), now)).toBe('1 minute ago');
    expect(formatRelative(ago(59 * 60_000), now)).toBe('59 minutes ago');
    expect(formatRelative(ago(3 * 3_600_000 + 5), now)).toBe('3 hours ago');
    expect(formatRelative(ago(30 * 3_600_000), now)).toBe('yesterday');
    expect(formatRelative(ago(6 * 86_400_000), now)).toBe('6 days ago');
  });

  it('gives the date from a week on, and nothing for an unreadable time', () => {
    expect(formatRelative(ago(8 * 86_400_000), now)).toMatch(/^11\/1[67]\/26$/);
    expect(formatRelative('not a date', now)).toBe('');
  });

  it('treats a time slightly in the future (clock skew) as just now', () => {
    expect(formatRelative(new Date(now.getTime() + 5_000).toISOString(), now)).toBe('just now');
  });
});

describe('formatSize', () => {
  it('writes a size in KB (at least 1), MB or GB, in units of 1024', () => {
    expect(formatSize(0)).toBe('1 KB');
    expect(formatSize(12 * 1024)).toBe('12 KB');
    expect(formatSize(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(formatSize(1_288_490_189)).toBe('1.2 GB');
  });
});

describe('formatTimeLeft', () => {
  it('writes a wait in seconds, minutes or hours and minutes', () => {
    expect(formatTimeLeft(0.2)).toBe('1 s');
    expect(formatTimeLeft(42.4)).toBe('42 s');
    expect(formatTimeLeft(61)).toBe('1 min');
    expect(formatTimeLeft(3000)).toBe('50 min');
    expect(formatTimeLeft(3600)).toBe('1 h');
    expect(formatTimeLeft(3900)).toBe('1 h 5 min');
  });
});
