import { describe, expect, it } from 'vitest';
import { cohensKappa } from './insightsRepository.ts';

describe('cohensKappa', () => {
  it('gives kappa from observed and expected agreement (the hand-computed example: 0.7 and 0.5 → 0.4)', () => {
    expect(cohensKappa(0.7, 0.5)).toBe(0.4);
    expect(cohensKappa(0.5, 0.5)).toBe(0);
    expect(cohensKappa(0, 0.5)).toBe(-1);
    expect(cohensKappa(1, 0.25)).toBe(1);
    expect(cohensKappa(2 / 3, 0.5)).toBe(0.3333);
  });

  it('is undefined when chance alone predicts full agreement', () => {
    expect(cohensKappa(1, 1)).toBeNull();
  });
});
