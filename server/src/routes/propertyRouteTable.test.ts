import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { UPLOAD_LIMIT } from '../../test/fixtures/propertyInputs.ts';
import { ROUTES } from '../../test/fixtures/propertyRoutes.ts';

// The property tests of every route (propertyInput.test.ts) cover the app only if their table
// lists every route it answers, and nothing else.

/** A built app shell, so that the SPA's routes (its page and static files) exist too. */
const spaDir = mkdtempSync(path.join(os.tmpdir(), 'pf-spa-'));
writeFileSync(
  path.join(spaDir, 'index.html'),
  '<!doctype html><html><head><!--app-config--></head><body></body></html>',
);
mkdirSync(path.join(spaDir, 'assets'));
writeFileSync(path.join(spaDir, 'assets', 'app.js'), 'console.log(1);');
afterAll(() => rmSync(spaDir, { recursive: true, force: true }));

const t = await buildTestApp({ uploadLimitBytes: UPLOAD_LIMIT, staticDir: spaDir });

// ---------------------------------------------------------------------------------------------
// The route table (server/test/fixtures/propertyRoutes.ts) against the app's own routes.

/** Every `METHOD path` the app answers, read from its route tree (HEAD as its GET). */
function appRoutes(): string[] {
  const found = new Set<string>();
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│├└─ ]*)(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match || !match[1]) continue;
    const depth = match[1].length / 4 - 1;
    stack.length = depth;
    stack[depth] = match[2]!;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      found.add(`${method === 'HEAD' ? 'GET' : method} ${stack.join('')}`);
    }
  }
  return [...found].sort();
}

describe('every route of the app is in the table', () => {
  it('and the table lists only routes of the app', () => {
    const routes = appRoutes();
    expect(routes.length).toBeGreaterThan(60);
    expect(
      routes.filter((r) => !(r in ROUTES)),
      'routes without generated input',
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((r) => !routes.includes(r)),
      'table entries the app does not have',
    ).toEqual([]);
  });
});
