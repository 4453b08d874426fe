import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { matchRoute, useRouter } from 'wouter';
import { useRememberedPatterns } from './routePatterns.ts';

describe('useRememberedPatterns', () => {
  it("parses a pattern once and matches as wouter's own parser does", () => {
    const { result } = renderHook(() => ({ remembered: useRememberedPatterns(), own: useRouter().parser }));
    const { remembered, own } = result.current;
    const first = remembered('/my-portfolios/:id/artifacts/:artifactId', false);
    expect(remembered('/my-portfolios/:id/artifacts/:artifactId', false)).toBe(first);
    const path = '/my-portfolios/7/artifacts/9';
    expect(first.pattern.exec(path)?.slice()).toEqual(
      own('/my-portfolios/:id/artifacts/:artifactId', false).pattern.exec(path)?.slice(),
    );
    expect(matchRoute(remembered, '/my-portfolios/:id', '/my-portfolios/7')).toEqual([true, { 0: '7', id: '7' }]);
    expect(matchRoute(remembered, '/my-portfolios/:id', '/shared-portfolios/7')).toEqual([false, null]);
  });

  it('keeps a loose (nested) pattern apart from the exact one', () => {
    const { result } = renderHook(() => useRememberedPatterns());
    const exact = result.current('/settings', false);
    const loose = result.current('/settings', true);
    expect(loose).not.toBe(exact);
    expect(exact.pattern.exec('/settings/notifications')).toBeNull();
    expect(loose.pattern.exec('/settings/notifications')).not.toBeNull();
  });
});
