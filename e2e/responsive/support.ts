import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { animationsDone, login, setupBrowser } from '../fixtures.ts';

declare global {
  interface Window {
    axe: { run: (context: Document, options: unknown) => Promise<AxeResults> };
  }
}

/**
 * What the responsive journeys share: the widths teachers use (a phone, an iPad upright and on its
 * side, a laptop), a screen checked at one of them (loaded, fitting, accessible, photographed into
 * `e2e/screenshots/`), and one signed-in page per role, resized through the widths.
 */
export const WIDTHS = [390, 768, 1024, 1280] as const;
const HEIGHTS: Record<(typeof WIDTHS)[number], number> = { 390: 844, 768: 1024, 1024: 768, 1280: 900 };
const SCREENSHOTS = path.resolve('e2e/screenshots');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"], [role="status"][aria-label^="Loading"]'))
    .catch(() => undefined);
  await animationsDone(page);
}

/** The page fits its width (no sideways scrolling) and nothing lies below the footer. */
export async function expectFits(page: Page, where: string): Promise<void> {
  const layout = await page.evaluate(() => {
    const footer = document.querySelector('footer')!.getBoundingClientRect();
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      pageBottom: document.documentElement.scrollHeight,
      footerBottom: Math.ceil(footer.bottom + window.scrollY),
    };
  });
  expect(layout.scrollWidth, `${where}: no horizontal page scroll`).toBeLessThanOrEqual(layout.innerWidth);
  expect(layout.pageBottom, `${where}: no content below the footer`).toBeLessThanOrEqual(layout.footerBottom + 1);
}

/** The element's box lies within the window (geometry, not only the DOM). */
export async function expectInView(locator: Locator, what: string): Promise<void> {
  await locator.waitFor();
  const box = await locator.boundingBox();
  const size = locator.page().viewportSize()!;
  expect(box, `${what} has a box`).not.toBeNull();
  expect(box!.y, `${what}: top in view (y=${box!.y})`).toBeGreaterThanOrEqual(0);
  expect(
    box!.y + Math.min(box!.height, 40),
    `${what}: in view (y=${box!.y}, window ${size.height})`,
  ).toBeLessThanOrEqual(size.height);
  expect(box!.x, `${what}: not off to the side`).toBeGreaterThanOrEqual(0);
  expect(box!.x + Math.min(box!.width, 40)).toBeLessThanOrEqual(size.width);
}

/** A screenshot of the whole page (`fullPage: false`: what the window shows, e.g. a dialog). */
export async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // From the top, so that sticky headers sit where a reader expects them in a picture of the whole page.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${page.viewportSize()!.width}.png`), fullPage });
}

/** axe (WCAG 2.1 A and AA) on the page as it is; one line per offending node. */
export async function audit(page: Page, where: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}`));
  }, WCAG_21_AA);
  return violations.map((v) => `[${where}] ${v}`);
}

/** A screen at one width: loaded, fitting, accessible and photographed. */
export async function check(page: Page, name: string, found: string[]): Promise<void> {
  await settle(page);
  const width = page.viewportSize()!.width;
  await expectFits(page, `${name} at ${width}`);
  found.push(...(await audit(page, `${name} at ${width}`)));
  await shoot(page, name);
}

/** One Chromium for the test file; `signedIn` gives a page of a role, signed in at 1280 px. */
export function setupResponsive() {
  const browser = setupBrowser();
  return {
    browser,
    async signedIn(email: string): Promise<Page> {
      const page = await browser.newPage('/login', { width: 1280, height: 900 });
      await login(page, email);
      await page.waitForURL('**/dashboard');
      return page;
    },
  };
}

export const resize = (page: Page, width: (typeof WIDTHS)[number]) =>
  page.setViewportSize({ width, height: HEIGHTS[width] });
