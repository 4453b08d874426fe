import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import type { Me } from '../../schemas/user.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { expectPath, makeUser, renderApp, resetApp } from '../../test/renderApp.tsx';
import { makeSharedArtifact, makeSharedPortfolio } from '../../test/sharedFixtures.ts';
import { clearToasts } from '../../views/feedback/toastStore.ts';
import { copyFromPath } from './copyRoutes.tsx';

afterEach(() => {
  resetApp();
  clearToasts();
});

type Answer = { status: number; body: unknown };

/** The API as the page sees it: each `METHOD /path` answers a fixed body; anything else stays pending. */
function fakeApi(answers: Record<string, Answer>) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(/^\/api\/v1/, '')}${url.search}`;
    calls.push({ key, body: typeof init?.body === 'string' ? JSON.parse(init.body) : null });
    const answer = answers[key];
    if (!answer) return new Promise<never>(() => undefined);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

async function renderWithApi(path: string, user: Me, answers: Record<string, Answer>) {
  const rendered = renderApp(path, { user });
  const calls = fakeApi(answers);
  await screen.findByRole('button', { name: user.username });
  return { ...rendered, calls };
}

function listItem(id: number, name: string): SharedPortfolioListItem {
  const { sharedArtifacts: _, ...rest } = makeSharedPortfolio({ id, name });
  return { ...rest, sharedArtifacts: [] };
}

const ok = (body: unknown): Answer => ({ status: 200, body });
const portfolios = ok([listItem(9, 'Grades 5–7 Science PLC'), listItem(12, 'Engineering Design Circle')]);

describe('the copy routes', () => {
  it('tells the two modes apart by the address', () => {
    expect(copyFromPath('/shared-portfolios/9/artifacts/70/copy')).toBe('sharedArtifact');
    expect(copyFromPath('/my-portfolios/7/artifacts/31/copy')).toBe('artifact');
  });

  it('copies a personal artifact and opens the new shared artifact’s edit page', async () => {
    const user = makeUser('teacher');
    const artifact = makeArtifact({
      id: 31,
      portfolio: { id: 7 },
      parkingLot: false,
      owner: { id: user.id, username: user.username, email: user.email },
      responses: { artifactName: 'Ramp race' },
    });
    const { calls, location } = await renderWithApi('/my-portfolios/7/artifacts/31/copy', user, {
      'GET /artifacts/31': ok(artifact),
      'GET /shared-portfolios': portfolios,
      'POST /artifacts/31/share': ok(makeSharedArtifact({ id: 300, sharedPortfolio: { id: 9 } })),
    });
    const ux = userEvent.setup();
    await ux.click(await screen.findByRole('radio', { name: 'Grades 5–7 Science PLC' }));
    await ux.click(screen.getByRole('button', { name: 'COMPLETE COPY' }));
    await expectPath(location, '/shared-portfolios/9/artifacts/300/edit');
    expect(await screen.findByText('Successfully copied artifact')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /artifacts/31/share')?.body).toEqual({ sharedPortfolioId: 9 });
    // The only shared-artifact read is the new copy's edit page loading it.
    await waitFor(() =>
      expect(calls.filter((c) => c.key.startsWith('GET /shared-artifacts/')).map((c) => c.key)).toEqual([
        'GET /shared-artifacts/300',
      ]),
    );
  });

  it('in shared mode copies the shared artifact, and CANCEL goes back to it', async () => {
    const user = makeUser('teacher');
    const source = {
      ...makeSharedArtifact({ id: 70, sharedPortfolio: { id: 9 }, responses: { artifactName: 'Food web' } }),
      reactions: [],
      comments: [],
      version: 1,
    };
    const { calls, location } = await renderWithApi('/shared-portfolios/9/artifacts/70/copy', user, {
      'GET /shared-artifacts/70': ok(source),
      'GET /shared-portfolios': portfolios,
      'POST /shared-artifacts/70/share': {
        status: 403,
        body: {
          statusCode: 403,
          error: 'Forbidden',
          message: 'You are not a member of this shared portfolio.',
          code: 'forbidden',
        },
      },
    });
    const ux = userEvent.setup();
    expect(await screen.findByText('Food web')).toBeTruthy();
    await ux.click(screen.getByRole('radio', { name: 'Engineering Design Circle' }));
    await ux.click(screen.getByRole('button', { name: 'COMPLETE COPY' }));
    expect(
      within(await screen.findByRole('alert')).getByText('You are not a member of this shared portfolio.'),
    ).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /shared-artifacts/70/share')?.body).toEqual({ sharedPortfolioId: 12 });
    expect(calls.some((c) => c.key.startsWith('GET /artifacts/'))).toBe(false);

    await ux.click(screen.getByRole('button', { name: 'CANCEL' }));
    await expectPath(location, '/shared-portfolios/9/artifacts/70');
  });
});
