import { describe, expect, it } from 'vitest';
import { effect } from './effect.ts';

describe('effect', () => {
  it('throws until the app provides it, naming the effect', () => {
    expect(() => effect('scrollToTop')()).toThrow(
      '"scrollToTop" must be provided with machine.provide() before the machine runs.',
    );
    expect(() => effect<{ id: number }>('navigate')(undefined, { id: 1 })).toThrow('"navigate"');
  });
});
