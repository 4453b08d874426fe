import type { Browser, Page } from 'playwright-core';
import type { Cookies, World } from './benchWorld.ts';
import { percentile } from './support.ts';

/**
 * Interaction to Next Paint of single interactions, from the Event Timing API (the longest event
 * entry of one `interactionId`), in one browser context at one width and CPU rate.
 */

export const INTERACTIONS = [
  { id: 'search', name: 'a keystroke in search', goalThrottled: 100 },
  { id: 'filter', name: 'a Filter By choice', goalThrottled: 200 },
  { id: 'select', name: 'selecting an artifact', goalThrottled: 100 },
  { id: 'compareOn', name: 'compare: turning it on', goalThrottled: 200 },
  { id: 'compareOpen', name: 'compare: the second pick opens the comparison', goalThrottled: 200 },
  { id: 'comment', name: 'posting a comment', goalThrottled: 200 },
  { id: 'bell', name: 'opening the notification panel (phones: the Notifications page)', goalThrottled: 200 },
  { id: 'marker', name: 'starting a video at a marker', goalThrottled: 200 },
] as const;
export type InteractionId = (typeof INTERACTIONS)[number]['id'];
export const GOAL_UNTHROTTLED_MS = 100;

export interface InteractionResult {
  width: number;
  throttle: number;
  id: InteractionId;
  /** INP of each repetition, ms (below 16 ms Chromium reports no entry: counted as 16). */
  runs: number[];
  median: number;
  p75: number;
}

// Strings, not functions: the TypeScript runner would name inner arrows with a helper the page lacks.
const OBSERVE_EVENTS =
  'window.__events = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.interactionId) window.__events.push({ id: e.interactionId, start: e.startTime, duration: e.duration }); }).observe({ type: "event", durationThreshold: 16, buffered: true });';

/** Runs `act` (one user interaction) and returns its INP: the longest event entry of the interactions it started. */
async function timed(page: Page, act: () => Promise<void>, settled: () => Promise<unknown>): Promise<number> {
  const since = (await page.evaluate('performance.now()')) as number;
  await act();
  await settled();
  // Event entries are delivered after the paint that ends them.
  await page.waitForTimeout(250);
  const events = (await page.evaluate('window.__events')) as { id: number; start: number; duration: number }[];
  const mine = events.filter((e) => e.start >= since);
  return Math.max(16, ...mine.map((e) => e.duration));
}

const ROWS = '[role=grid][aria-label=Artifacts] [role=row][aria-rowindex]:not([aria-rowindex="1"])';

/** Every interaction at `width` px and a `throttle`× CPU slowdown, `reps` times each. */
export async function measureConfig(
  browser: Browser,
  url: string,
  cookies: Cookies,
  world: World,
  width: number,
  throttle: number,
  reps: number,
): Promise<InteractionResult[]> {
  // bypassCSP: the benchmark's own probes are strings the page's script-src would refuse.
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 900 },
    storageState: { cookies, origins: [] },
    bypassCSP: true,
  });
  const runs = new Map<InteractionId, number[]>(INTERACTIONS.map((i) => [i.id, []]));
  const add = (id: InteractionId, ms: number) => runs.get(id)!.push(ms);
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVE_EVENTS);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    await page.goto(`${url}/my-portfolios/${world.big.id}`);
    await page.locator(ROWS).first().waitFor({ timeout: 60_000 });

    // Search: keystrokes one after the other, then the box is emptied again.
    const search = page.getByLabel('Search artifacts');
    for (let r = 0; r < reps; r++) {
      await search.click();
      for (const key of 'Ramp')
        add(
          'search',
          await timed(
            page,
            () => page.keyboard.press(key),
            () => page.waitForTimeout(50),
          ),
        );
      await search.fill('');
      await page.locator(ROWS).nth(5).waitFor();
    }
    // Filter By: a tick applies at once.
    for (let r = 0; r < reps; r++) {
      await page.getByRole('button', { name: 'Filter By' }).click();
      const box = page.getByRole('dialog', { name: 'Filter By' }).getByRole('checkbox', { name: 'Student work' });
      await box.waitFor();
      add(
        'filter',
        await timed(
          page,
          () => box.click(),
          () => box.isChecked(),
        ),
      );
      await box.click();
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('dialog', { name: 'Filter By' }).waitFor({ state: 'detached' });
    }
    // Selecting an artifact: a different row each time.
    for (let r = 0; r < reps; r++) {
      const row = page.locator(ROWS).nth(1 + (r % 5));
      const key = await row.getAttribute('data-row-key');
      add(
        'select',
        await timed(
          page,
          () => row.click(),
          () => page.locator(`${ROWS}[data-row-key="${key}"][aria-selected=true]`).waitFor({ state: 'attached' }),
        ),
      );
      // Stacked (narrow) layouts: the artifact took the table's place.
      if (width < 900) await page.getByRole('button', { name: /Back to artifacts/ }).click();
      await page.locator(ROWS).nth(5).waitFor();
    }
    // Compare: on, two picks (the second opens the side-by-side view), off.
    const compare = page.getByRole('checkbox', { name: 'Compare', exact: true });
    for (let r = 0; r < reps; r++) {
      add(
        'compareOn',
        await timed(
          page,
          () => compare.check(),
          () => page.locator(ROWS).first().getByRole('checkbox').waitFor(),
        ),
      );
      await page.locator(ROWS).nth(1).getByRole('checkbox').check();
      add(
        'compareOpen',
        await timed(
          page,
          () => page.locator(ROWS).nth(2).getByRole('checkbox').check(),
          () => page.waitForTimeout(50),
        ),
      );
      await compare.uncheck();
      await page.locator(ROWS).first().getByRole('checkbox').waitFor({ state: 'detached' });
    }
    // The notification panel: opened, closed with Escape.
    const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
    for (let r = 0; r < reps; r++) {
      if (width < 768) {
        // Phones open the feed as a page of its own.
        add(
          'bell',
          await timed(
            page,
            () => bell.click(),
            () => page.waitForURL('**/notifications'),
          ),
        );
        await page.goBack();
        await page.locator(ROWS).nth(5).waitFor();
      } else {
        add(
          'bell',
          await timed(
            page,
            () => bell.click(),
            () => page.getByRole('banner').getByRole('dialog').waitFor(),
          ),
        );
        await page.keyboard.press('Escape');
        await page.getByRole('banner').getByRole('dialog').waitFor({ state: 'detached' });
      }
    }

    // The shared artifact with the video: a marker starts the video there; a comment is posted.
    await page.goto(`${url}/shared-portfolios/${world.shared.plc}/artifacts/${world.shared.artifact}`);
    await page.waitForFunction('(document.querySelector("video")?.readyState ?? 0) >= 1', undefined, {
      timeout: 60_000,
    });
    const marker = page.getByRole('button', { name: world.shared.marker });
    for (let r = 0; r < reps; r++) {
      await page.evaluate('document.querySelector("video").currentTime = 0');
      add(
        'marker',
        await timed(
          page,
          () => marker.click(),
          () => page.waitForFunction('Math.abs(document.querySelector("video").currentTime - 2) < 0.5'),
        ),
      );
    }
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    for (let r = 0; r < reps; r++) {
      await box.fill(`Benchmark comment ${r + 1}`);
      add(
        'comment',
        await timed(
          page,
          () => page.getByRole('button', { name: 'Post Comment' }).click(),
          () =>
            page
              .getByText(`Benchmark comment ${r + 1}`)
              .last()
              .waitFor(),
        ),
      );
      await page.waitForFunction('!document.querySelector("textarea")?.readOnly');
    }
  } finally {
    await context.close();
  }
  return INTERACTIONS.map(({ id }) => {
    const r = runs.get(id)!;
    return {
      width,
      throttle,
      id,
      runs: r.map(Math.round),
      median: Math.round(percentile(r, 50)),
      p75: Math.round(percentile(r, 75)),
    };
  });
}
