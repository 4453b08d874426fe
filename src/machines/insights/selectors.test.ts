import { describe, expect, it } from 'vitest';
import type { Insights } from '../../schemas/insights.ts';
import { fileNameOf, kappaStrength, kappaText, rowText, summaryOf, tableOf } from './selectors.ts';

const criterion = { id: 5, code: 'SEP2', label: 'Developing and using models', rubric: 'NGSS practices', version: 2 };
const DATA: Insights = {
  scope: 'portfolios',
  portfolios: [{ id: 31, name: 'Grade 5 PLC' }],
  activity: [
    { week: '2026-03-02', artifacts: 2, comments: 1, reactions: 0, scores: 4 },
    { week: '2026-03-09', artifacts: 0, comments: 3, reactions: 2, scores: 0 },
  ],
  discussion: [{ id: 31, name: 'Grade 5 PLC', artifacts: 2, comments: 4, reactions: 2 }],
  discussionMore: 2,
  levels: [
    {
      criterion,
      levels: [
        { id: 51, label: 'Beginning', score: 1, count: 1 },
        { id: 52, label: 'Proficient', score: 3, count: 2 },
      ],
    },
  ],
  agreement: [
    { criterion, pairs: 10, observed: 0.7, expected: 0.5, kappa: 0.4 },
    { criterion: { ...criterion, id: 6, code: '' }, pairs: 1, observed: 1, expected: 1, kappa: null },
  ],
};
const EMPTY: Insights = { ...DATA, activity: [], discussion: [], discussionMore: 0, levels: [], agreement: [] };

describe('insights selectors', () => {
  it('lays every chart out as the rows its table, its CSV and its marks share', () => {
    expect(tableOf('levels', DATA)).toEqual({
      columns: ['Rubric', 'Criterion', 'Level', 'Score', 'Times given', 'Share (%)'],
      rows: [
        ['NGSS practices (version 2)', 'SEP2 Developing and using models', 'Beginning', 1, 1, 33],
        ['NGSS practices (version 2)', 'SEP2 Developing and using models', 'Proficient', 3, 2, 67],
      ],
    });
    expect(tableOf('agreement', DATA).rows).toEqual([
      ['NGSS practices (version 2)', 'SEP2 Developing and using models', 10, '0.70', '0.50', '0.40'],
      ['NGSS practices (version 2)', 'Developing and using models', 1, '1.00', '1.00', 'undefined'],
    ]);
    expect(rowText(tableOf('activity', DATA), 1)).toBe(
      'Week of 2026-03-09: Shared artifacts 0, Comments 3, Reactions 2, Scores 0',
    );
    expect(rowText(tableOf('activity', DATA), 5)).toBe('');
  });

  it('sums each chart up in words, and says so when there is nothing', () => {
    expect(summaryOf('activity', DATA)).toBe(
      'From the week of 2026-03-02 to the week of 2026-03-09 (2 weeks): 2 shared artifacts, 4 comments, 2 reactions and 4 scores. The most discussed week was the week of 2026-03-09, with 3 comments and 2 reactions.',
    );
    expect(summaryOf('discussion', DATA)).toBe(
      '1 shared portfolio, the most discussed first. Grade 5 PLC leads with 4 comments and 2 reactions. 2 more portfolios are not shown.',
    );
    expect(summaryOf('levels', DATA)).toBe(
      '3 scores on 1 criterion. SEP2 Developing and using models: most often Proficient (2 of 3).',
    );
    expect(summaryOf('agreement', DATA)).toBe(
      '11 pairs of scores on 2 criteria. Cohen’s kappa ranges from 0.40 to 0.40. Highest: SEP2 Developing and using models, kappa 0.40 (fair, 10 pairs).',
    );
    expect(summaryOf('activity', EMPTY)).toBe('Nothing was shared, discussed or scored in this range.');
    expect(summaryOf('agreement', EMPTY)).toMatch(/^No moment or artifact was scored by two people/);
  });

  it('names kappa in Landis and Koch’s words, and the files by the chart', () => {
    expect([-0.1, 0.1, 0.3, 0.5, 0.7, 0.9, null].map(kappaStrength)).toEqual([
      'poor',
      'slight',
      'fair',
      'moderate',
      'substantial',
      'almost perfect',
      'not defined',
    ]);
    expect(kappaText(null)).toBe('undefined');
    expect(fileNameOf('agreement', 'png')).toBe('inter-rater-agreement.png');
  });
});
