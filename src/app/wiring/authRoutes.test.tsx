import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { peekOrigin, storeOrigin } from '../../services/session.ts';
import { expectPath, makeUser, renderApp, resetApp } from '../../test/renderApp.tsx';
import { clearToasts } from '../../views/feedback/toastStore.ts';

/** The API as the auth pages see it: each call answers what `answers` says for its method and path. */
function fakeApi(answers: Record<string, { status: number; body: unknown }>) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(/^\/api\/v1/, '')}`;
    calls.push({ key, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    const answer = answers[key];
    if (!answer) return new Promise<never>(() => undefined);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

const nested = (status: number, message: string) => ({
  status,
  body: { statusCode: status, error: 'Bad Request', message: [{ messages: [{ id: 'auth', message }] }] },
});

beforeEach(clearToasts);
afterEach(() => {
  resetApp();
  clearToasts();
});

describe('the auth pages in the app', () => {
  it('logging in keeps no token in the page, starts the session and goes to the dashboard', async () => {
    const user = makeUser('teacher');
    const { location } = renderApp('/login');
    const calls = fakeApi({
      'POST /auth/local': { status: 200, body: { jwt: 'h.p.s', user } },
      'GET /users/me': { status: 200, body: user },
    });
    const ux = userEvent.setup();
    await ux.type(await screen.findByLabelText('Email'), 'tess@example.org');
    await ux.type(screen.getByLabelText('Password'), 'spiral-demo');
    await ux.click(screen.getByRole('button', { name: 'LOGIN' }));
    await expectPath(location, '/dashboard');
    expect(await screen.findByRole('button', { name: user.username })).toBeTruthy();
    // (The page came without the ways to sign in: it asked for them as it opened, before this fake
    // API.) The dashboard then loads its own data; the login itself is these two calls.
    expect(calls.map((c) => c.key).slice(0, 2)).toEqual(['POST /auth/local', 'GET /users/me']);
    expect(calls.filter((c) => c.key.includes('/auth/') || c.key.includes('/users/me'))).toHaveLength(2);
    expect(calls[0]?.body).toEqual({ identifier: 'tess@example.org', password: 'spiral-demo', remember: false });
    expect(document.cookie).not.toContain('jwt='); // the server keeps the token in its HttpOnly cookie
    // The login page is replaced, so Back does not return to it.
    expect(location.history).toEqual(['/dashboard']);
  });

  it('a page that came with the ways to sign in shows their buttons without asking the server', async () => {
    const script = document.createElement('script');
    script.id = 'sign-in-methods';
    script.type = 'application/json';
    script.textContent = JSON.stringify({
      providers: [{ id: 'school', label: 'Springfield Schools', start: '/api/v1/auth/oidc/school/start' }],
      passwordLogin: true,
    });
    document.head.append(script);
    try {
      // The app's API never answers here: the button can only come from the page.
      renderApp('/login');
      expect(await screen.findByRole('button', { name: /Sign in with Springfield Schools/ })).toBeTruthy();
      expect(screen.getByLabelText('Email')).toBeTruthy();
    } finally {
      script.remove();
    }
  });

  it('logging in goes to the page the visitor first asked for, and forgets it', async () => {
    const user = makeUser('teacher');
    storeOrigin('/my-portfolios/7');
    const { location } = renderApp('/login');
    fakeApi({
      'POST /auth/local': { status: 200, body: { jwt: 'h.p.s', user } },
      'GET /users/me': { status: 200, body: user },
    });
    const ux = userEvent.setup();
    await ux.type(await screen.findByLabelText('Email'), 'tess@example.org');
    await ux.type(screen.getByLabelText('Password'), 'spiral-demo{Enter}');
    await expectPath(location, '/my-portfolios/7');
    expect(await screen.findByRole('button', { name: user.username })).toBeTruthy();
    expect(peekOrigin()).toBeNull();
  });

  it('a refused login alerts the spec’s message and stays on /login', async () => {
    const { location, sessionActor } = renderApp('/login');
    fakeApi({ 'POST /auth/local': nested(400, 'Identifier or password invalid.') });
    const ux = userEvent.setup();
    await ux.type(await screen.findByLabelText('Email'), 'tess@example.org');
    await ux.type(screen.getByLabelText('Password'), 'wrong{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain('Incorrect email or password.');
    expect(location.history.at(-1)).toBe('/login');
    expect(sessionActor.getSnapshot().value).toBe('anonymous');
  });

  it('asking for a reset link says so and goes to /login', async () => {
    const { location } = renderApp('/forgot-password');
    const calls = fakeApi({ 'POST /auth/forgot-password': { status: 200, body: { ok: true } } });
    const ux = userEvent.setup();
    await ux.type(await screen.findByLabelText('Email'), 'tess@example.org{Enter}');
    await expectPath(location, '/login');
    expect(await screen.findByText('If your email was valid, a reset password link will be sent to it.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Login' })).toBeTruthy();
    // Then the login page asks which ways to sign in it offers.
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('GET /auth/methods'));
    expect(calls.filter((c) => c.key !== 'GET /auth/methods')).toEqual([
      { key: 'POST /auth/forgot-password', body: { email: 'tess@example.org' } },
    ]);
  });

  it('a new password logs the user in and goes to the dashboard', async () => {
    const user = makeUser('teacher');
    const { location } = renderApp('/reset-password/abc123');
    const calls = fakeApi({ 'POST /auth/reset-password': { status: 200, body: { jwt: 'h.p.s', user } } });
    const ux = userEvent.setup();
    await ux.type(await screen.findByLabelText('New Password'), 'brand-new-pass');
    await ux.type(screen.getByLabelText('Confirm New Password'), 'brand-new-pass{Enter}');
    await expectPath(location, '/dashboard');
    expect(await screen.findByText('Your password has been changed and you have been logged in.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: user.username })).toBeTruthy();
    expect(calls.filter((c) => c.key.includes('/auth/'))).toEqual([
      {
        key: 'POST /auth/reset-password',
        body: { code: 'abc123', password: 'brand-new-pass', passwordConfirmation: 'brand-new-pass' },
      },
    ]);
    expect(document.cookie).not.toContain('jwt='); // the server keeps the token in its HttpOnly cookie
  });

  it('a refused code alerts the server’s first message and stays', async () => {
    const { location } = renderApp('/reset-password/used');
    fakeApi({ 'POST /auth/reset-password': nested(400, 'Incorrect code provided.') });
    const ux = userEvent.setup();
    await ux.type(await screen.findByLabelText('New Password'), 'brand-new-pass');
    await ux.type(screen.getByLabelText('Confirm New Password'), 'brand-new-pass{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain('Incorrect code provided.');
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'SUBMIT' }) as HTMLButtonElement).disabled).toBe(false),
    );
    expect(location.history.at(-1)).toBe('/reset-password/used');
  });
});
