import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SharedArtifactBriefSchema, type SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import type { Me } from '../../schemas/user.ts';
import { SHARED_ARTIFACT_ABILITIES } from '../../test/abilityFixtures.ts';
import { makeSharedArtifactDetail } from '../../test/sharedArtifactFixtures.ts';
import {
  makeComment,
  makeReaction,
  makeSharedArtifact,
  makeSharedPortfolio,
  people,
} from '../../test/sharedHarness.tsx';
import { expectPath, makeUser, renderApp, resetApp } from '../../test/renderApp.tsx';
import { clearToasts } from '../../views/feedback/toastStore.ts';

afterEach(() => {
  resetApp();
  clearToasts();
});

interface Call {
  key: string;
  body: unknown;
}

/** The API as the page sees it: each `METHOD /path` answers a fixed body; anything else stays pending. */
function fakeApi(answers: Record<string, { status: number; body: unknown }>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(/^\/api\/v1/, '')}${url.search}`;
    // The header's notification bell asks for its unread count on every signed-in page: not a
    // call of the page under test (and it stays pending here).
    if (!key.startsWith('GET /notifications/'))
      calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const answer = answers[key];
    if (!answer) return new Promise<never>(() => undefined);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

async function renderWithApi(path: string, user: Me, answers: Record<string, { status: number; body: unknown }>) {
  const rendered = renderApp(path, { user });
  const calls = fakeApi(answers);
  await screen.findByRole('button', { name: user.username });
  return { ...rendered, calls };
}

const ok = (body: unknown) => ({ status: 200, body });

function plc(owner: Me): SharedPortfolio {
  const tess = { id: owner.id, username: owner.username, email: owner.email };
  return makeSharedPortfolio({
    id: 9,
    members: [people.lee, tess],
    sharedArtifacts: [
      makeSharedArtifact({
        id: 70,
        owner: tess,
        ownerUsername: tess.username,
        responses: { artifactName: 'Ramp race' },
        reactions: { '⭐': true },
        // What the server answers the shared portfolio's owner: she may comment and react.
        abilities: SHARED_ARTIFACT_ABILITIES.worker,
      }),
    ],
  });
}

const listItem = (p: SharedPortfolio) => ({
  ...p,
  sharedArtifacts: p.sharedArtifacts.map(({ id, owner, created_at, updated_at }) => ({
    id,
    owner: { id: owner.id },
    created_at,
    updated_at,
  })),
});

/** The portfolio as `GET /shared-portfolios/{id}/summary` answers it: its artifacts in brief. */
const summary = (p: SharedPortfolio) => ({
  ...p,
  sharedArtifacts: p.sharedArtifacts.map((a) => SharedArtifactBriefSchema.parse(a)),
});

describe('the shared portfolio routes', () => {
  it('load the list and the portfolio in brief from the API; choosing an artifact rewrites the address in place and reads it whole with its discussion', async () => {
    const user = makeUser('teacher');
    const portfolio = plc(user);
    const detail = makeSharedArtifactDetail({
      id: 70,
      comments: [makeComment({ id: 31, text: 'Did anyone test two cars at once?' })],
      reactions: [makeReaction({ id: 41, owner: people.lee.id, value: '⭐' })],
    });
    const { location, calls } = await renderWithApi('/shared-portfolios', user, {
      'GET /shared-portfolios': ok([listItem(portfolio)]),
      'GET /shared-portfolios/9/summary': ok(summary(portfolio)),
      'GET /shared-artifacts/70': ok(detail),
      'POST /reactions': ok(makeReaction({ id: 50, owner: user.id, value: '⭐' })),
    });
    const ux = userEvent.setup();
    await ux.selectOptions(
      await screen.findByRole('combobox', { name: 'Select Shared Portfolio' }),
      'Grades 5–7 Science PLC',
    );
    await expectPath(location, '/shared-portfolios/9');
    await ux.click(await screen.findByRole('row', { name: /Ramp race/ }));
    await expectPath(location, '/shared-portfolios/9/artifacts/70');
    expect(location.history).toEqual(['/shared-portfolios', '/shared-portfolios/9/artifacts/70']);
    const pane = screen.getByRole('region', { name: 'Artifact details' });
    expect(await within(pane).findByText('Did anyone test two cars at once?')).toBeTruthy();
    await ux.click(within(pane).getByRole('button', { name: 'Exemplar, 1' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /reactions')?.body).toEqual({ sharedArtifact: 70, value: '⭐' }),
    );
    // One page: the list was asked for once; the portfolio only in brief.
    expect(calls.filter((c) => c.key === 'GET /shared-portfolios')).toHaveLength(1);
    expect(calls.filter((c) => c.key === 'GET /shared-portfolios/9')).toEqual([]);
    expect(document.title).toBe('Shared Portfolios · PracticeFolio');
  });

  it('offers researchers the summary CSV of the API', async () => {
    await renderWithApi('/shared-portfolios', makeUser('researcher'), { 'GET /shared-portfolios': ok([]) });
    const link = await screen.findByRole('link', { name: 'Export shared portfolios summary' });
    expect(link.getAttribute('href')).toBe(`${window.location.origin}/api/v1/shared-portfolios/export`);
    expect(link.getAttribute('download')).toBe('shared portfolios.csv');
  });

  it.each(['/shared-portfolios/abc', '/shared-portfolios/9/artifacts/x1'])(
    'says “Shared portfolio not found.” for %s',
    async (path) => {
      const { calls } = await renderWithApi(path, makeUser('teacher'), {});
      expect((await screen.findByRole('alert')).textContent).toBe('Shared portfolio not found.');
      expect(calls).toEqual([]);
    },
  );

  it('says “Shared portfolio not found.” when the API answers 404', async () => {
    await renderWithApi('/shared-portfolios/44', makeUser('teacher'), {
      'GET /shared-portfolios': ok([]),
      'GET /shared-portfolios/44/summary': {
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: 'Shared portfolio not found.', code: 'not_found' },
      },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Shared portfolio not found.');
  });
});
