import { describe, expect, it } from 'vitest';
import { relativeTime } from './relativeTime.ts';

const now = new Date('2026-11-25T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe('relativeTime', () => {
  it('says how long ago, in the largest whole unit, up to a week', () => {
    expect(relativeTime(ago(20_000), now)).toBe('just now');
    expect(relativeTime(ago(60_000), now)).toBe('1 minute ago');
    expect(relativeTime(ago(59 * 60_000), now)).toBe('59 minutes ago');
    expect(relativeTime(ago(3 * 3_600_000 + 5), now)).toBe('3 hours ago');
    expect(relativeTime(ago(30 * 3_600_000), now)).toBe('yesterday');
    expect(relativeTime(ago(6 * 86_400_000), now)).toBe('6 days ago');
  });

  it('gives the date from a week on, and nothing for an unreadable time', () => {
    expect(relativeTime(ago(8 * 86_400_000), now)).toMatch(/^11\/1[67]\/26$/);
    expect(relativeTime('not a date', now)).toBe('');
  });

  it('treats a time slightly in the future (clock skew) as just now', () => {
    expect(relativeTime(new Date(now.getTime() + 5_000).toISOString(), now)).toBe('just now');
  });
});
