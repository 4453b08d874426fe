import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../schemas/user.ts';
import { expectPath, makeUser, renderApp, resetApp } from '../../test/renderApp.tsx';
import { makeSharedArtifactDetail } from '../../test/sharedArtifactFixtures.ts';
import { makeSharedArtifact } from '../../test/sharedFixtures.ts';
import { clearToasts } from '../../views/feedback/toastStore.ts';

afterEach(() => {
  resetApp();
  clearToasts();
});

type Answer = { status: number; body: unknown };

/**
 * The API as the page sees it: each `METHOD /path?query` answers a fixed body (or a list: one after
 * the other, the last one again); anything else stays pending.
 */
function fakeApi(answers: Record<string, Answer | Answer[]>) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(/^\/api\/v1/, '')}${url.search}`;
    calls.push({ key, body: typeof init?.body === 'string' ? JSON.parse(init.body) : null });
    const listed = answers[key];
    const answer = Array.isArray(listed) ? (listed.length > 1 ? listed.shift() : listed[0]) : listed;
    if (!answer) return new Promise<never>(() => undefined);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

async function renderWithApi(path: string, user: Me, answers: Record<string, Answer | Answer[]>) {
  const rendered = renderApp(path, { user });
  const calls = fakeApi(answers);
  await screen.findByRole('button', { name: user.username });
  return { ...rendered, calls };
}

const LOADED = '2026-03-02T10:00:00.000Z';
const STORED = '2026-03-02T11:30:00.000Z';
const ok = (body: unknown): Answer => ({ status: 200, body });
const gateCheckKey = (updatedAt: string) =>
  `GET /shared-portfolios/9/shared-artifacts/70/gate-check?updated_at=${encodeURIComponent(updatedAt)}`;

describe('the shared artifact edit route', () => {
  it('loads the shared artifact, and when someone saved since merges through the versions API and saves against theirs', async () => {
    const user = makeUser('teacher');
    const artifact = makeSharedArtifactDetail({ updated_at: LOADED, version: 1 });
    const theirs = { artifactName: 'Ramp race', learningGoal: 'Forces and friction' };
    const version = (number: number, responses: Record<string, string>) => ({
      number,
      author: { id: 77, name: 'Ana Lopez' },
      created_at: number === 1 ? LOADED : STORED,
      client: 'web',
      restoredFrom: null,
      summary: 'What were students working to learn?',
      responses,
      images: [],
      videos: [],
      documents: [],
    });
    const { calls, location } = await renderWithApi('/shared-portfolios/9/artifacts/70/edit', user, {
      'GET /shared-artifacts/70': [
        ok(artifact),
        ok({ ...artifact, responses: theirs, updated_at: STORED, version: 2 }),
      ],
      [gateCheckKey(LOADED)]: ok({
        type: 'warning',
        message: 'This artifact has recently been saved by someone else at 3/2/2026, 11:30:00 AM.',
        updated_at: STORED,
        saved_by: { id: 77, username: 'Ana Lopez' },
      }),
      'GET /shared-artifacts/70/versions/1': ok(version(1, { artifactName: 'Ramp race', learningGoal: 'Forces' })),
      'GET /shared-artifacts/70/versions/2': ok(version(2, theirs)),
      'GET /shared-artifacts/70/versions?limit=1': ok({ items: [version(2, theirs)], total: 2, nextBefore: 1 }),
      'PUT /shared-artifacts/70': ok(
        makeSharedArtifact({
          responses: { artifactName: 'Ramp races', learningGoal: 'Forces and friction' },
          updated_at: '2026-03-02T12:00:00.000Z',
        }),
      ),
    });
    const ux = userEvent.setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Shared Artifact' })).toBeTruthy();
    await ux.type(screen.getByRole('textbox', { name: 'Artifact Name' }), 's');
    await ux.click(screen.getByRole('button', { name: 'Save' }));
    await expectPath(location, '/shared-portfolios/9/artifacts/70');
    expect(await screen.findByText('Successfully edited shared artifact')).toBeTruthy();
    expect(
      await screen.findByText("Saved with Ana Lopez's changes to “What were students working to learn?”."),
    ).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.find((c) => c.key === 'PUT /shared-artifacts/70')?.body).toEqual({
      responses: { artifactName: 'Ramp races', learningGoal: 'Forces and friction' },
      updated_at: STORED,
    });
    // Nothing went to the personal endpoints.
    expect(calls.filter((c) => c.key.includes('/artifacts/') && !c.key.includes('shared')).map((c) => c.key)).toEqual(
      [],
    );
  });

  it('a researcher may edit shared artifacts', async () => {
    await renderWithApi('/shared-portfolios/9/artifacts/70/edit', makeUser('researcher'), {
      'GET /shared-artifacts/70': ok(makeSharedArtifactDetail()),
    });
    expect(((await screen.findByRole('textbox', { name: 'Artifact Name' })) as HTMLInputElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('someone outside the team (the server answers 404) reads “Shared artifact not found.”', async () => {
    const user = makeUser('teacher');
    await renderWithApi('/shared-portfolios/9/artifacts/71/edit', user, {
      'GET /shared-artifacts/71': {
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: 'Shared artifact not found.', code: 'not_found' },
      },
    });
    expect(await screen.findByText('Shared artifact not found.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Shared Portfolios' }).getAttribute('href')).toBe(
      '/shared-portfolios',
    );
  });
});
