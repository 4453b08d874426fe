import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../views/feedback/toastStore.ts';
import { daysAgo, listItemOf, makeAccount, makeArtifact, makePortfolio } from '../../test/portfolioHarness.tsx';
import type { Me } from '../../schemas/user.ts';
import { expectPath, makeUser, renderApp, resetApp } from '../../test/renderApp.tsx';
import { teacherPortfoliosPath } from './portfolioRoutes.tsx';

afterEach(() => {
  resetApp();
  clearToasts();
});

/** The app at `path` for `user`, with the API answering `answers` (set before any page asks). */
async function renderWithApi(path: string, user: Me, answers: Record<string, { status: number; body: unknown }>) {
  const rendered = renderApp(path, { user });
  const calls = fakeApi(answers);
  await screen.findByRole('button', { name: user.username });
  return { ...rendered, calls };
}

/** The API as these pages see it: each `METHOD /path?query` answers a fixed body; anything else stays pending. */
function fakeApi(answers: Record<string, { status: number; body: unknown }>) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(/^\/api\/v1/, '')}${url.search}`;
    // The header's notification bell asks for its unread count on every signed-in page: not a
    // call of the page under test (and it stays pending here).
    if (!key.startsWith('GET /notifications/')) calls.push(key);
    const answer = answers[key];
    if (!answer) return new Promise<never>(() => undefined);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

const forces = makePortfolio({
  id: 41,
  name: 'Forces and Motion',
  artifacts: [
    makeArtifact({
      id: 1,
      portfolio: { id: 41 },
      parkingLot: false,
      created_at: daysAgo(4),
      responses: { artifactName: 'Ramp races' },
    }),
    makeArtifact({
      id: 2,
      portfolio: { id: 41 },
      parkingLot: true,
      created_at: daysAgo(1),
      responses: { artifactName: 'Tug-of-war video' },
    }),
  ],
});

describe('the portfolio routes', () => {
  it('My Portfolios loads the list and the portfolio from the API; choosing an artifact rewrites the address in place', async () => {
    const { location, calls } = await renderWithApi('/my-portfolios', makeUser('teacher'), {
      'GET /portfolios': { status: 200, body: [listItemOf(forces)] },
      // The table reads the portfolio in brief; an opened artifact is read whole.
      'GET /portfolios/41/summary': { status: 200, body: forces },
      'GET /artifacts/1': { status: 200, body: forces.artifacts[0] },
    });
    const ux = userEvent.setup();
    await ux.selectOptions(await screen.findByRole('combobox', { name: 'Select Portfolio' }), 'Forces and Motion');
    await expectPath(location, '/my-portfolios/41');
    await ux.click(await screen.findByRole('row', { name: /Ramp races/ }));
    await expectPath(location, '/my-portfolios/41/artifacts/1');
    expect(location.history).toEqual(['/my-portfolios', '/my-portfolios/41/artifacts/1']);
    expect(
      await within(screen.getByRole('region', { name: 'Artifact details' })).findByRole('link', { name: 'EDIT' }),
    ).toBeTruthy();
    // The page stayed the same page: the list was asked for once.
    expect(calls.filter((c) => c === 'GET /portfolios')).toHaveLength(1);
    expect(calls).not.toContain('GET /portfolios/41');
    expect(document.title).toBe('My Portfolios · PracticeFolio');
  });

  it('says “Portfolio not found.” for an address that is no portfolio id', async () => {
    await renderWithApi('/my-portfolios/abc', makeUser('teacher'), { 'GET /portfolios': { status: 200, body: [] } });
    expect((await screen.findByRole('alert')).textContent).toBe('Portfolio not found.');
  });

  it('sends researchers, who own no portfolios, from My Portfolios to Teacher Portfolios', async () => {
    const { location } = await renderWithApi('/my-portfolios/41', makeUser('researcher'), {
      'GET /users?role_ne=4': { status: 200, body: [] },
    });
    await expectPath(location, '/teacher-portfolios');
    expect(await screen.findByRole('heading', { level: 1, name: 'Teacher Portfolios' })).toBeTruthy();
  });

  it('tells anyone but a researcher that Teacher Portfolios is for researchers, without asking the API', async () => {
    const { calls } = await renderWithApi('/teacher-portfolios', makeUser('plcLead'), {});
    expect(await screen.findByText('Only researchers can view teacher portfolios.')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('Teacher Portfolios lists teachers and leads from the API and puts the chosen one in the query', async () => {
    const { location, calls } = await renderWithApi('/teacher-portfolios', makeUser('researcher'), {
      'GET /users?role_ne=4': {
        status: 200,
        body: [makeAccount(7, 'Tess Teacher'), makeAccount(8, 'Lee Lead', 'plcLead')],
      },
      'GET /portfolios?owner=7': { status: 200, body: [listItemOf(forces)] },
    });
    const ux = userEvent.setup();
    const select = (await screen.findByRole('combobox', { name: 'Select Teacher' })) as HTMLSelectElement;
    await waitFor(() =>
      expect([...select.options].map((o) => o.textContent)).toEqual(['Select a teacher', 'Lead, Lee', 'Teacher, Tess']),
    );
    expect(screen.getByRole('link', { name: 'Export portfolios summary' }).getAttribute('href')).toBe(
      `${window.location.origin}/api/v1/portfolios/export`,
    );
    await ux.selectOptions(select, 'Teacher, Tess');
    await expectPath(location, '/teacher-portfolios?teacher=7');
    expect(await screen.findByRole('option', { name: 'Forces and Motion' })).toBeTruthy();
    expect(calls).toContain('GET /portfolios?owner=7');
  });

  it('builds Teacher Portfolios addresses from the place shown', () => {
    expect(teacherPortfoliosPath({})).toBe('/teacher-portfolios');
    expect(teacherPortfoliosPath({ teacher: 7, portfolio: 12, artifact: 40 })).toBe(
      '/teacher-portfolios?teacher=7&portfolio=12&artifact=40',
    );
    expect(teacherPortfoliosPath({ teacher: 7, portfolio: null })).toBe('/teacher-portfolios?teacher=7');
  });
});
