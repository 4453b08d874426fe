import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { PAGE_MODULES, preloadFiles, SIGNED_IN_MODULES, type Manifest } from './spaPreload.ts';

/** A build manifest as Vite writes it: the entry, two pages sharing a chunk, the signed-in frame's parts. */
const MANIFEST: Manifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_vendor-1.js'] },
  '_vendor-1.js': { file: 'assets/vendor-1.js' },
  '_zod-1.js': { file: 'assets/zod-1.js' },
  '_service-1.js': { file: 'assets/service-1.js', imports: ['_zod-1.js', '_vendor-1.js'] },
  'src/app/wiring/dashboardRoute.tsx': {
    file: 'assets/dashboardRoute-1.js',
    imports: ['_vendor-1.js', 'index.html', '_service-1.js'],
  },
  'src/app/wiring/portfolioRoutes.tsx': { file: 'assets/portfolioRoutes-1.js', imports: ['_service-1.js'] },
  'src/app/wiring/sharedRoutes.tsx': { file: 'assets/sharedRoutes-1.js', imports: ['_service-1.js'] },
  'src/views/shared/browser/SharedDiscussion.tsx': { file: 'assets/SharedDiscussion-1.js' },
  'src/views/layout/AccountTools.tsx': { file: 'assets/AccountTools-1.js', imports: ['index.html'] },
  'src/app/wiring/notificationFeed.ts': { file: 'assets/notificationFeed-1.js' },
};

const FRAME = ['assets/AccountTools-1.js', 'assets/notificationFeed-1.js'];

describe('the scripts a page preloads', () => {
  it("are the page's modules and the signed-in frame's, with what they import, less what the entry loads", () => {
    expect(preloadFiles(MANIFEST, '/dashboard', true)).toEqual([
      'assets/dashboardRoute-1.js',
      'assets/service-1.js',
      'assets/zod-1.js',
      ...FRAME,
    ]);
    expect(preloadFiles(MANIFEST, '/my-portfolios/7/', true)).toEqual([
      'assets/portfolioRoutes-1.js',
      'assets/service-1.js',
      'assets/zod-1.js',
      ...FRAME,
    ]);
    expect(preloadFiles(MANIFEST, '/shared-portfolios/3/artifacts/9', true)).toEqual([
      'assets/sharedRoutes-1.js',
      'assets/service-1.js',
      'assets/zod-1.js',
      'assets/SharedDiscussion-1.js',
      ...FRAME,
    ]);
  });

  it('are none without a session, and none for the other pages', () => {
    expect(preloadFiles(MANIFEST, '/dashboard', false)).toEqual([]);
    for (const other of ['/', '/login', '/help', '/my-portfolios/7/edit', '/shared-portfolios/new'])
      expect(preloadFiles(MANIFEST, other, true), other).toEqual([]);
  });

  it("name modules of the app's source (the keys of its build manifest)", () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    for (const module of [...PAGE_MODULES.flatMap((p) => p.modules), ...SIGNED_IN_MODULES])
      expect(existsSync(path.join(root, module)), module).toBe(true);
    const app = readFileSync(path.join(root, 'src/app/App.tsx'), 'utf8');
    expect(app).toContain("import('./wiring/dashboardRoute.tsx')");
    expect(app).toContain("import('./wiring/portfolioRoutes.tsx')");
    expect(app).toContain("import('./wiring/sharedRoutes.tsx')");
  });
});

describe('the SPA page of a built app with its manifest', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-spa-preload-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, '.vite'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><!--app-config--><script type="module" crossorigin src="/assets/index-1.js"></script></head><body></body></html>',
  );
  writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  const app = buildTestApp({ staticDir: dir });
  const page = async (url: string, cookie?: string) =>
    (await app).app.inject({
      method: 'GET',
      url,
      headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) },
    });

  it('names the scripts of a signed-in page in its head, and varies with the cookie', async () => {
    const res = await page('/dashboard?from=mail', 'pf_session=1');
    expect(res).toHaveStatus(200);
    expect(res.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/dashboardRoute-1.js"><link rel="modulepreload" crossorigin href="/assets/service-1.js">',
    );
    expect(res.body.indexOf('modulepreload')).toBeGreaterThan(res.body.indexOf('/assets/index-1.js'));
    expect(res.body.indexOf('modulepreload')).toBeLessThan(res.body.indexOf('</head>'));
    expect(res.headers['vary']).toMatch(/cookie/i);

    const anonymous = await page('/dashboard');
    expect(anonymous.body).not.toContain('modulepreload');
    expect(anonymous.headers['etag']).not.toBe(res.headers['etag']);
    expect((await page('/login', 'pf_session=1')).body).not.toContain('modulepreload');
  });
});
