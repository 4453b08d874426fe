import { describe, expect, it } from 'vitest';
import { makeExportRecord } from '../../test/researchHarness.tsx';
import { followsRunning, LOG_FOLLOW_WINDOW_MS } from './researchExportMachine.ts';

const NOW = Date.parse('2026-03-04T15:30:00.000Z');
const running = (startedMsAgo: number) =>
  makeExportRecord({
    status: 'running',
    started_at: new Date(NOW - startedMsAgo).toISOString(),
    finished_at: null,
    bytes: null,
    rowCounts: {},
  });

describe('followsRunning: whether the export log is read again until an export ends', () => {
  it('follows an export that started moments ago and still runs', () => {
    expect(followsRunning([makeExportRecord(), running(3_000)], NOW)).toBe(true);
  });

  it('does not follow a log of finished exports, whatever their outcome', () => {
    const finished = (['completed', 'cancelled', 'failed'] as const).map((status) => makeExportRecord({ status }));
    expect(followsRunning(finished, NOW)).toBe(false);
    expect(followsRunning([], NOW)).toBe(false);
  });

  it('does not wait for an export left running longer than the window (its server stopped meanwhile)', () => {
    expect(followsRunning([running(LOG_FOLLOW_WINDOW_MS - 1)], NOW)).toBe(true);
    expect(followsRunning([running(LOG_FOLLOW_WINDOW_MS)], NOW)).toBe(false);
  });
});
