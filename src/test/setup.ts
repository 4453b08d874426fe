import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// Pages load lazily (each route is its own chunk): the first render of a page waits for its module.
configure({ asyncUtilTimeout: 5000 });

// Tests fail on unexpected console errors and warnings (style guide §10).
let problems: string[] = [];
beforeEach(() => {
  problems = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    problems.push(args.map(String).join(' '));
  });
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    problems.push(args.map(String).join(' '));
  });
});

afterEach(() => {
  cleanup();
  document.cookie.split(';').forEach((c) => {
    document.cookie = `${c.split('=')[0]?.trim()}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
  sessionStorage.clear();
  vi.restoreAllMocks();
  vi.useRealTimers();
  if (problems.length > 0) {
    const found = problems;
    problems = [];
    throw new Error(`Unexpected console output:\n${found.join('\n')}`);
  }
});
