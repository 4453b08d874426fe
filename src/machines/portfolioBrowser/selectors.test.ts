import { describe, expect, it } from 'vitest';
import { BASIC_STRUCTURE, makeArtifact } from '../../test/artifactFixtures.ts';
import { makeSharedArtifact, people } from '../../test/sharedFixtures.ts';
import { teacherLabel, teacherOptions } from '../teacherPicker/selectors.ts';
import {
  activeFilterCount,
  defaultSort,
  filterGroups,
  filterRows,
  filterValueLabel,
  gradeLabels,
  NO_FILTERS,
  nextSort,
  searchTextOf,
  setRecentFilter,
  sortPortfoliosByName,
  sortRows,
  STANDARDS_FILTER_LABEL,
  toggleFilter,
  toRows,
  type Filters,
} from './selectors.ts';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 5, 15, 12);
const at = (daysBefore: number) => new Date(NOW - daysBefore * DAY).toISOString();

const rows = toRows([
  makeArtifact({
    id: 1,
    parkingLot: false,
    created_at: at(10),
    commentTexts: ['What about FRICTION?'],
    responses: {
      artifactName: 'Ramp races',
      artifactCategory: ['Student work', 'Photo of an activity'],
      unitTiming: 'Beginning of unit',
      unitDay: 12,
    },
  }),
  makeArtifact({
    id: 2,
    parkingLot: false,
    created_at: at(3),
    responses: {
      artifactName: 'Exit ticket',
      artifactCategory: ['Assessment'],
      unitTiming: 'Middle of unit',
      standardFrameworkTags: ['Patterns'],
    },
  }),
  makeArtifact({
    id: 3,
    parkingLot: true,
    created_at: at(1),
    responses: {
      unitTiming: 'Middle of unit',
      standardFrameworkTags: ['Core Idea ESS1: Earth\u2019s Place in the Universe'],
    },
  }),
]);
const names = (list: readonly { name: string }[]) => list.map((r) => r.name);
const filters = (values: Filters['values'], recentSince: number | null = null): Filters => ({ values, recentSince });

describe('artifact rows', () => {
  it('index every response value (list items and numbers too) and every comment, lower-cased', () => {
    const text = searchTextOf(rows[0]!.artifact);
    for (const part of [
      'ramp races',
      'student work',
      'photo of an activity',
      'beginning of unit',
      '12',
      'what about friction?',
    ]) {
      expect(text).toContain(part);
    }
    expect(rows[2]!.name).toBe('(Unnamed)');
  });
});

describe('filterRows', () => {
  it('returns everything without filters or search', () => {
    expect(filterRows(rows, NO_FILTERS, '  ')).toBe(rows);
  });

  it('ORs the values of one question and ANDs across questions', () => {
    expect(names(filterRows(rows, filters({ artifactCategory: ['Student work'] }), ''))).toEqual(['Ramp races']);
    expect(names(filterRows(rows, filters({ artifactCategory: ['Student work', 'Assessment'] }), ''))).toEqual([
      'Ramp races',
      'Exit ticket',
    ]);
    expect(
      names(
        filterRows(
          rows,
          filters({ artifactCategory: ['Student work', 'Assessment'], unitTiming: ['Middle of unit'] }),
          '',
        ),
      ),
    ).toEqual(['Exit ticket']);
    expect(names(filterRows(rows, filters({ unitTiming: ['Middle of unit', 'Beginning of unit'] }), ''))).toEqual([
      'Ramp races',
      'Exit ticket',
      '(Unnamed)',
    ]);
  });

  it('matches a standard stored under the mobile apps’ label as the web label', () => {
    expect(
      names(
        filterRows(rows, filters({ standardFrameworkTags: ["Core Idea ESS1: Earth's Place in the Universe"] }), ''),
      ),
    ).toEqual(['(Unnamed)']);
  });

  it('keeps artifacts of the last 7 days with the recent filter', () => {
    const recent = setRecentFilter(NO_FILTERS, true, NOW);
    expect(names(filterRows(rows, recent, ''))).toEqual(['Exit ticket', '(Unnamed)']);
    expect(setRecentFilter(recent, false, NOW)).toEqual(NO_FILTERS);
    expect(names(filterRows(rows, { ...recent, values: { unitTiming: ['Middle of unit'] } }, 'exit'))).toEqual([
      'Exit ticket',
    ]);
  });

  it('searches case-insensitively for every word, in list items and comments', () => {
    expect(names(filterRows(rows, NO_FILTERS, 'PHOTO of'))).toEqual(['Ramp races']);
    expect(names(filterRows(rows, NO_FILTERS, 'friction'))).toEqual(['Ramp races']);
    expect(names(filterRows(rows, NO_FILTERS, 'middle unit'))).toEqual(['Exit ticket', '(Unnamed)']);
    expect(names(filterRows(rows, NO_FILTERS, 'ramp assessment'))).toEqual([]);
  });

  it('finds the right artifacts among 10,000 (the search text is computed once per artifact)', () => {
    const many = toRows(
      Array.from({ length: 10_000 }, (_, i) =>
        makeArtifact({
          id: i + 1,
          created_at: at(i % 30),
          responses: {
            artifactName: `Artifact ${i}`,
            artifactCategory: i % 2 === 0 ? ['Student work'] : ['Assessment'],
            learningGoal: i % 100 === 7 ? 'Levers and pulleys' : 'Fractions',
          },
          commentTexts: i === 9_999 ? ['needle in a haystack'] : [],
        }),
      ),
    );
    expect(filterRows(many, NO_FILTERS, 'pulleys')).toHaveLength(100);
    expect(filterRows(many, filters({ artifactCategory: ['Assessment'] }), 'pulleys')).toHaveLength(100);
    expect(filterRows(many, filters({ artifactCategory: ['Student work'] }), 'pulleys')).toHaveLength(0);
    expect(names(filterRows(many, NO_FILTERS, 'NEEDLE'))).toEqual(['Artifact 9999']);
    const inLastWeek = Array.from({ length: 10_000 }, (_, i) => i % 30).filter((days) => days <= 7).length;
    expect(filterRows(many, setRecentFilter(NO_FILTERS, true, NOW), '')).toHaveLength(inLastWeek);
  });
});

describe('filter groups', () => {
  it('are the choice questions of the structure, then the standards panels', () => {
    const groups = filterGroups(BASIC_STRUCTURE);
    expect(groups.map((g) => [g.key, g.label])).toEqual([
      ['unitTiming', 'When in the unit was this?'],
      ['artifactCategory', 'What kind of evidence is this?'],
      ['standardFrameworkTags', STANDARDS_FILTER_LABEL],
    ]);
    expect(groups[2]!.choices).toHaveLength(57);
  });

  it('toggle one value at a time and count the chosen ones', () => {
    let f = toggleFilter(NO_FILTERS, 'unitTiming', 'Middle of unit');
    f = toggleFilter(f, 'artifactCategory', 'Assessment');
    f = setRecentFilter(f, true, NOW);
    expect(activeFilterCount(f)).toBe(3);
    f = toggleFilter(f, 'unitTiming', 'Middle of unit');
    expect(f.values).toEqual({ artifactCategory: ['Assessment'] });
  });
});

describe('sorting', () => {
  it('defaults to parking lot first then newest in personal views, newest first for researchers', () => {
    expect(names(sortRows(rows, defaultSort('personal')))).toEqual(['(Unnamed)', 'Exit ticket', 'Ramp races']);
    expect(
      names(
        sortRows(
          toRows([rows[0]!.artifact, { ...rows[2]!.artifact, parkingLot: false }, rows[1]!.artifact]),
          defaultSort('researcher'),
        ),
      ),
    ).toEqual(['(Unnamed)', 'Exit ticket', 'Ramp races']);
    expect(defaultSort('researcher')).toEqual({ column: 'date', direction: 'descending' });
  });

  it('starts text columns A→Z and flips on the same column', () => {
    const byName = nextSort(defaultSort('personal'), 'name');
    expect(byName).toEqual({ column: 'name', direction: 'ascending' });
    expect(names(sortRows(rows, byName))).toEqual(['(Unnamed)', 'Exit ticket', 'Ramp races']);
    expect(nextSort(byName, 'name')).toEqual({ column: 'name', direction: 'descending' });
    expect(nextSort(byName, 'comments')).toEqual({ column: 'comments', direction: 'descending' });
  });

  it('sorts portfolios by name, ignoring case', () => {
    expect(
      sortPortfoliosByName([
        { id: 1, name: 'Zoo' },
        { id: 2, name: 'algebra' },
        { id: 3, name: 'Biology' },
      ]).map((p) => p.name),
    ).toEqual(['algebra', 'Biology', 'Zoo']);
  });

  it('shows grades by label in the catalogue’s order', () => {
    expect(gradeLabels(['5th', 'K', 'Pre-K'])).toEqual(['Pre-K', 'Kindergarten', '5th Grade']);
  });
});

describe('teacher labels', () => {
  it('are “Last, First” from the username, sorted by that label', () => {
    expect(teacherLabel('Tess Teacher')).toBe('Teacher, Tess');
    expect(teacherLabel('Ana Maria Zapata')).toBe('Zapata, Ana Maria');
    expect(teacherLabel('madonna')).toBe('madonna');
    expect(
      teacherOptions([
        { id: 1, username: 'Tess Teacher' },
        { id: 2, username: 'Lee Lead' },
        { id: 3, username: 'abe adams' },
      ]).map((t) => t.label),
    ).toEqual(['adams, abe', 'Lead, Lee', 'Teacher, Tess']);
  });
});

describe('shared portfolios', () => {
  const shared = toRows(
    [
      makeSharedArtifact({
        id: 70,
        owner: people.tess,
        portfolioGrades: ['6th'],
        reactions: { '⭐': true, '🌉': false },
        commentTexts: ['Try MARBLES'],
      }),
      makeSharedArtifact({ id: 71, owner: people.theo, portfolioGrades: ['5th', '6th'], reactions: { '🔖': true } }),
    ],
    people.tess.id,
  );

  it('index My Artifacts, the portfolio grades and the reactions given as filter values', () => {
    expect(shared[0]!.filterValues).toMatchObject({
      '@showOnly': ['My Artifacts'],
      '@grade': ['6th'],
      '@reactions': ['⭐'],
    });
    expect(shared[1]!.filterValues).toMatchObject({ '@showOnly': [], '@grade': ['5th', '6th'], '@reactions': ['🔖'] });
    expect(shared[0]!.searchText).toContain('try marbles');
  });

  it('filter on them like on answers', () => {
    expect(names(filterRows(shared, filters({ '@showOnly': ['My Artifacts'] }), ''))).toEqual(['Ramp race']);
    expect(names(filterRows(shared, filters({ '@grade': ['6th'], '@reactions': ['🔖', '❓'] }), ''))).toEqual([
      'Ramp race',
    ]);
    expect(filterRows(shared, filters({ '@grade': ['5th'] }), '').map((r) => r.id)).toEqual([71]);
  });

  it('put Show Only, Grade and Has Reactions before the questions of a shared portfolio only', () => {
    expect(
      filterGroups(BASIC_STRUCTURE, true)
        .slice(0, 3)
        .map((g) => [g.label, g.choices.length]),
    ).toEqual([
      ['Show Only', 1],
      ['Grade', 14],
      ['Has Reactions', 4],
    ]);
    expect(filterGroups(BASIC_STRUCTURE).map((g) => g.label)).not.toContain('Show Only');
    expect(filterValueLabel('@reactions', '❓')).toBe('❓ I have a question');
    // Grades read by their names, as everywhere else (spec §3).
    expect(filterValueLabel('@grade', 'K')).toBe('Kindergarten');
    expect(filterValueLabel('@grade', '1st')).toBe('1st Grade');
  });
});
