import { describe, expect, it } from 'vitest';
import type { Invitation } from '../../schemas/invitation.ts';
import type { PortfolioListItem } from '../../schemas/portfolio.ts';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import {
  DEFAULT_SORT,
  gradeText,
  invitationRows,
  nextSort,
  sortPortfolios,
  sortSharedPortfolios,
  summarize,
} from './selectors.ts';

const person = (id: number) => ({ id, username: `User ${id}`, email: `u${id}@example.org` });

function portfolio(
  id: number,
  name: string,
  created: string,
  extra: Partial<PortfolioListItem> = {},
): PortfolioListItem {
  return {
    id,
    name,
    created_at: created,
    updated_at: created,
    grades: [],
    subject: null,
    topic: null,
    template: 'Basic',
    owner: person(1),
    structure: [],
    artifacts: [],
    ...extra,
  };
}

function shared(id: number, extra: Partial<SharedPortfolioListItem> = {}): SharedPortfolioListItem {
  return {
    id,
    name: `Shared ${id}`,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    grades: [],
    subject: null,
    topic: null,
    plcName: null,
    plcGoals: null,
    owner: person(1),
    members: [],
    structure: [],
    templateStructure: [],
    commentCount: 0,
    sharedArtifacts: [],
    ...extra,
  };
}

const brief = (id: number) => ({
  id,
  owner: { id: 1 },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe('dashboard selectors', () => {
  it('start newest first; a new column starts A→Z for text and largest first for dates and counts', () => {
    expect(DEFAULT_SORT).toEqual({ column: 'date', direction: 'descending' });
    expect(nextSort(DEFAULT_SORT, 'date')).toEqual({ column: 'date', direction: 'ascending' });
    expect(nextSort(DEFAULT_SORT, 'name')).toEqual({ column: 'name', direction: 'ascending' });
    expect(nextSort({ column: 'name', direction: 'ascending' }, 'artifacts')).toEqual({
      column: 'artifacts',
      direction: 'descending',
    });
    expect(nextSort({ column: 'name', direction: 'ascending' }, 'comments')).toEqual({
      column: 'comments',
      direction: 'descending',
    });
  });

  it('sort portfolios by any column, ties newest first, without changing the list given', () => {
    const list = [
      portfolio(1, 'beta', '2026-01-02T00:00:00.000Z', { grades: ['3rd'], subject: 'Science' }),
      portfolio(2, 'Alpha', '2026-01-03T00:00:00.000Z', { grades: ['K', '12th'] }),
      portfolio(3, 'alpha', '2026-01-01T00:00:00.000Z', {
        subject: 'Arts',
        artifacts: [{ ...brief(9), parkingLot: false }],
      }),
    ];
    const names = (rows: PortfolioListItem[]) => rows.map((p) => p.id);
    expect(names(sortPortfolios(list, DEFAULT_SORT))).toEqual([2, 1, 3]);
    expect(names(sortPortfolios(list, { column: 'name', direction: 'ascending' }))).toEqual([2, 3, 1]);
    expect(names(sortPortfolios(list, { column: 'grades', direction: 'ascending' }))).toEqual([2, 1, 3]);
    expect(names(sortPortfolios(list, { column: 'artifacts', direction: 'descending' }))).toEqual([3, 2, 1]);
    expect(names(sortPortfolios(list, { column: 'subject', direction: 'descending' }))).toEqual([1, 3, 2]);
    expect(list.map((p) => p.id)).toEqual([1, 2, 3]);
  });

  it('sort shared portfolios by comments and PLC name', () => {
    const list = [shared(1, { commentCount: 2, plcName: 'Zeta' }), shared(2, { commentCount: 5, plcName: 'alpha' })];
    expect(sortSharedPortfolios(list, { column: 'comments', direction: 'descending' }).map((p) => p.id)).toEqual([
      2, 1,
    ]);
    expect(sortSharedPortfolios(list, { column: 'plcName', direction: 'ascending' }).map((p) => p.id)).toEqual([2, 1]);
  });

  it('show grades by label in the catalogue order', () => {
    expect(gradeText(['1st', 'K', 'Pre-K'])).toBe('Pre-K, Kindergarten, 1st Grade');
    expect(gradeText([])).toBe('');
  });

  it('count shared portfolios, their artifacts and comments, and distinct members', () => {
    const summary = summarize([
      shared(1, { sharedArtifacts: [brief(1), brief(2)], commentCount: 4, members: [person(1), person(2)] }),
      shared(2, { sharedArtifacts: [brief(3)], commentCount: 1, members: [person(2), person(3)] }),
      shared(3),
    ]);
    expect(summary).toEqual({ portfolios: 3, artifacts: 3, comments: 5, teachers: 3 });
    expect(summarize([])).toEqual({ portfolios: 0, artifacts: 0, comments: 0, teachers: 0 });
  });

  it('list invitations newest first and skip those whose shared portfolio is gone', () => {
    const invitation = (id: number, created: string, sp: SharedPortfolioListItem | null): Invitation =>
      ({ id, to: person(2), from: person(1), sharedPortfolio: sp, created_at: created }) as Invitation;
    const rows = invitationRows([
      invitation(1, '2026-01-01T00:00:00.000Z', shared(1)),
      invitation(2, '2026-02-01T00:00:00.000Z', null),
      invitation(3, '2026-03-01T00:00:00.000Z', shared(3)),
    ]);
    expect(rows.map((i) => i.id)).toEqual([3, 1]);
  });
});
