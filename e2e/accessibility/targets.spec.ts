import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO, login } from '../fixtures.ts';
import { AXE_SOURCE, type Demo, findDemo, settle, setupAudits } from './support.ts';

const browser = setupAudits();

/** axe's `target-size` (WCAG 2.2, 2.5.8) and `scrollable-region-focusable` on the page as it is; one line per node. */
async function auditTargets(page: Page, where: string): Promise<string[]> {
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'rule', values: ['target-size', 'scrollable-region-focusable'] },
      resultTypes: ['violations'],
    });
    return result.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id} ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`),
    );
  });
  return violations.map((v) => `[${where}] ${v}`);
}

describe('at 390 px: targets of at least 24 × 24 px and scrollable regions reachable by keyboard', () => {
  let demo: Demo;
  beforeAll(async () => {
    demo = await findDemo();
  });

  it('every role’s main screens pass axe target-size and scrollable-region-focusable', async () => {
    const found: string[] = [];
    const phone = { width: 390, height: 844 };
    const anonymous = await browser.newPage('/login', phone);
    found.push(...(await auditTargets(anonymous, 'login')));

    const pages: [string, string[]][] = [
      [
        DEMO.teacher.email,
        [
          '/dashboard',
          `/my-portfolios/${demo.forces}`,
          `/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`,
          `/shared-portfolios/${demo.plc}`,
          `/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}`,
        ],
      ],
      [DEMO.lead.email, ['/dashboard', '/shared-portfolios/new', `/shared-portfolios/${demo.plc}/edit`]],
      [
        DEMO.researcher.email,
        ['/dashboard', `/teacher-portfolios`, '/users', '/research-export', '/insights', '/rubrics'],
      ],
    ];
    for (const [email, paths] of pages) {
      const page = await browser.newPage('/login', phone);
      await login(page, email);
      await page.waitForURL('**/dashboard');
      for (const pathname of paths) {
        await page.goto(pathname);
        found.push(...(await auditTargets(page, `${email} ${pathname}`)));
      }
    }
    expect(found, found.join('\n')).toEqual([]);
  });
});
