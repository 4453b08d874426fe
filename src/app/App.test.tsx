import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { peekOrigin, storeOrigin } from '../services/session.ts';
import { expectPath, makeUser, renderApp, renderSignedIn, resetApp } from '../test/renderApp.tsx';

afterEach(resetApp);

/** The private routes of spec §2, with sample parameters. */
const PRIVATE_ROUTES = [
  '/dashboard',
  '/my-portfolios',
  '/my-portfolios/7',
  '/my-portfolios/7/edit',
  '/my-portfolios/7/artifacts/9',
  '/my-portfolios/7/artifacts/9/edit',
  '/my-portfolios/7/artifacts/9/copy',
  '/teacher-portfolios',
  '/shared-portfolios',
  '/shared-portfolios/new',
  '/shared-portfolios/3',
  '/shared-portfolios/3/edit',
  '/shared-portfolios/3/artifacts/9',
  '/shared-portfolios/3/artifacts/9/edit',
  '/shared-portfolios/3/artifacts/9/copy',
  '/users',
  '/insights',
];

/** The public routes of spec §2 that show a page of their own (no redirect). */
const PUBLIC_PAGES = [
  '/home',
  '/about',
  '/privacy',
  '/login',
  '/forgot-password',
  '/reset-password/abc123',
  '/images/uploads/photo.jpg.html',
  '/videos/uploads/clip.mp4.html',
];

const notFound = () => screen.queryByRole('heading', { level: 1, name: 'Page not found' });

describe('routing rules (spec §2)', () => {
  it.each(PRIVATE_ROUTES)('an anonymous visit to %s remembers it and goes to / then /home', async (path) => {
    const { location, visits } = renderApp(path);
    await expectPath(location, '/home');
    expect(visits).toEqual([path, '/', '/home']);
    // Redirects replace the entry, so Back does not bounce the visitor into the guard again.
    expect(location.history).toEqual(['/home']);
    expect(peekOrigin()).toBe(path);
    expect(await screen.findByRole('link', { name: 'LOGIN' })).toBeTruthy();
  });

  it('an anonymous visit to an invitation (a link from its e-mail) remembers it and goes to the sign-in page itself', async () => {
    const { location, visits } = renderApp('/invitation/5');
    await expectPath(location, '/login');
    expect(visits).toEqual(['/invitation/5', '/login']);
    expect(location.history).toEqual(['/login']);
    expect(peekOrigin()).toBe('/invitation/5');
  });

  it('remembers the query string of the requested page too', async () => {
    const { location } = renderApp('/shared-portfolios/3?tab=comments');
    await expectPath(location, '/home');
    expect(peekOrigin()).toBe('/shared-portfolios/3?tab=comments');
  });

  it('sends an anonymous visitor of / to the showcase site when one is configured', async () => {
    const replace = vi.fn<(url: string) => void>();
    vi.stubGlobal('location', { ...window.location, replace });
    const { visits } = renderApp('/my-portfolios/7', { config: { showcaseUrl: 'https://showcase.example.org/' } });
    await waitFor(() => expect(replace).toHaveBeenCalledWith('https://showcase.example.org/'));
    expect(replace).toHaveBeenCalledTimes(1);
    expect(visits).toEqual(['/my-portfolios/7', '/']);
    expect(peekOrigin()).toBe('/my-portfolios/7');
  });

  it('sends an anonymous visitor of / to /home when no showcase site is configured', async () => {
    const { location } = renderApp('/');
    await expectPath(location, '/home');
    expect(screen.getByRole('heading', { level: 1, name: 'PracticeFolio' })).toBeTruthy();
  });

  it('/ with a session goes to the remembered origin and forgets it', async () => {
    storeOrigin('/shared-portfolios/3/artifacts/9');
    const { location, visits } = renderApp('/', { user: makeUser() });
    await expectPath(location, '/shared-portfolios/3/artifacts/9');
    expect(visits).toEqual(['/', '/shared-portfolios/3/artifacts/9']);
    expect(peekOrigin()).toBeNull();
  });

  it('/ with a session and no origin goes to the dashboard', async () => {
    const user = makeUser();
    const { location } = renderApp('/', { user });
    await expectPath(location, '/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'PORTFOLIO DASHBOARD' })).toBeTruthy();
    expect(screen.getByText(`Welcome, ${user.username}`)).toBeTruthy();
  });

  it('never follows a remembered origin that leaves the site', async () => {
    storeOrigin('//evil.example.org/phish');
    const { location } = renderApp('/', { user: makeUser() });
    await expectPath(location, '/dashboard');
    expect(peekOrigin()).toBeNull();
  });

  it.each(['/login', '/reset-password/x'])('%s with a session goes to the dashboard', async (path) => {
    const { location, visits } = renderApp(path, { user: makeUser() });
    await expectPath(location, '/dashboard');
    expect(visits).toEqual([path, '/dashboard']);
  });

  it.each(['/login', '/reset-password/x'])(
    '%s with a session goes to the remembered origin and forgets it',
    async (path) => {
      storeOrigin('/my-portfolios/7');
      const { location } = renderApp(path, { user: makeUser() });
      await expectPath(location, '/my-portfolios/7');
      expect(peekOrigin()).toBeNull();
    },
  );

  it.each(['/login', '/reset-password/x', '/forgot-password'])(
    '%s stays put for an anonymous visitor',
    async (path) => {
      const { visits } = renderApp(path);
      expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
      expect(visits).toEqual([path]);
    },
  );

  it('after logging in on /login, the visitor goes to the page they first asked for', async () => {
    const user = makeUser();
    const { location, sessionActor } = renderApp('/my-portfolios/7');
    await expectPath(location, '/home');
    act(() => location.navigate('/login'));
    await expectPath(location, '/login');
    act(() => sessionActor.send({ type: 'session.loggedIn', user }));
    await expectPath(location, '/my-portfolios/7');
    expect(peekOrigin()).toBeNull();
  });

  it('a session that expires on a private page remembers the page and goes to /home', async () => {
    const { location, sessionActor } = await renderSignedIn('/shared-portfolios/3', makeUser());
    act(() => sessionActor.send({ type: 'session.expired' }));
    await expectPath(location, '/home');
    expect(peekOrigin()).toBe('/shared-portfolios/3');
  });
});

describe('every route of spec §2 exists', () => {
  it.each(PUBLIC_PAGES)('%s shows a page to an anonymous visitor', async (path) => {
    const { visits } = renderApp(path);
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(notFound()).toBeNull();
    expect(visits).toEqual([path]);
  });

  it.each(['/home', '/about', '/privacy'])('%s is also shown with a session', async (path) => {
    const { visits } = await renderSignedIn(path, makeUser());
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
    expect(notFound()).toBeNull();
    expect(visits).toEqual([path]);
  });

  // Each page signed in as a role it is meant for (a researcher has no personal portfolios, and
  // only researchers manage users or read teacher portfolios).
  const roleFor = (path: string) =>
    path.startsWith('/my-portfolios')
      ? 'teacher'
      : path === '/teacher-portfolios' || path === '/users'
        ? 'researcher'
        : 'plcLead';

  it.each(PRIVATE_ROUTES)('%s shows a page when signed in', async (path) => {
    const { visits } = await renderSignedIn(path, makeUser(roleFor(path)));
    // The page itself shows: its heading, or its own loading state while its data is on the way.
    const main = within(screen.getByRole('main'));
    await waitFor(() => expect(main.queryByRole('heading', { level: 1 }) ?? main.queryByRole('status')).toBeTruthy());
    expect(notFound()).toBeNull();
    expect(visits).toEqual([path]);
  });

  it.each(['/nowhere', '/my-portfolios/7/artifacts', '/dashboard/extra'])('%s shows Page not found', async (path) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });

  it('an unknown address shows Page not found to a signed-in user too', async () => {
    await renderSignedIn('/nowhere', makeUser());
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });

  it('shows a loading skeleton on a private page while the session is checked', async () => {
    const user = makeUser();
    const { visits } = renderApp('/dashboard', { user });
    expect(screen.getByRole('status', { name: 'Loading page' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'PORTFOLIO DASHBOARD' })).toBeTruthy();
    expect(visits).toEqual(['/dashboard']);
  });
});
