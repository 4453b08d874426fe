import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { currentOrigin as peekOrigin, rememberOrigin as storeOrigin } from '../../machines/session/useSession.ts';
import { expectPath, makeUser, renderApp, resetApp } from '../../test/renderApp.tsx';

afterEach(resetApp);

// The real entry point renders inside <StrictMode>, which renders components twice before they
// commit: the guards must not lose the remembered origin on the first of those renders.
describe('route guards under StrictMode', () => {
  it('/ with a session still goes to the remembered origin', async () => {
    storeOrigin('/my-portfolios/7');
    const { location } = renderApp('/', { user: makeUser(), strict: true });
    await expectPath(location, '/my-portfolios/7');
    expect(peekOrigin()).toBeNull();
  });

  it('/login with a session still goes to the remembered origin', async () => {
    storeOrigin('/invitation/5');
    const { location } = renderApp('/login', { user: makeUser(), strict: true });
    await expectPath(location, '/invitation/5');
    expect(peekOrigin()).toBeNull();
  });

  it('a private page visited anonymously is remembered and the visitor lands on /home', async () => {
    const { location } = renderApp('/teacher-portfolios', { strict: true });
    await expectPath(location, '/home');
    expect(peekOrigin()).toBe('/teacher-portfolios');
    expect(await screen.findByRole('heading', { level: 1, name: 'PracticeFolio' })).toBeTruthy();
  });
});

describe('when the session cannot be checked', () => {
  it('a private page says the portal cannot be reached and tries again on request', async () => {
    const user = makeUser();
    const { location } = renderApp('/dashboard', { user, offline: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'The portal cannot be reached' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'PORTFOLIO DASHBOARD' })).toBeTruthy();
    expect(location.history).toEqual(['/dashboard']);
  });

  it('/ says the portal cannot be reached instead of guessing where to go', async () => {
    const { visits } = renderApp('/', { offline: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'The portal cannot be reached' })).toBeTruthy();
    expect(visits).toEqual(['/']);
  });

  it('/login stays usable', async () => {
    const { visits, sessionActor } = renderApp('/login', { offline: true });
    await waitFor(() => expect(sessionActor.getSnapshot().value).toBe('unreachable'));
    // The page the session's change drew: the login form, not the unreachable notice.
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: 'The portal cannot be reached' })).toBeNull();
    expect(visits).toEqual(['/login']);
  });
});
