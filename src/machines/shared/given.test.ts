import { describe, expect, it } from 'vitest';
import { given } from './given.ts';

describe('given', () => {
  it('keeps the given values and leaves out the missing ones', () => {
    const fake = () => 1;
    expect(given({ a: fake, b: undefined, c: 0 })).toEqual({ a: fake, c: 0 });
    expect(Object.keys(given({ a: undefined }))).toEqual([]);
  });
});
