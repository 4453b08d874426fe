import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { expectPath, makeUser, renderApp, renderSignedIn, resetApp } from '../../test/renderApp.tsx';

afterEach(resetApp);

const mainNavLinks = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);

describe('header navigation (spec §2)', () => {
  it('a teacher sees PORTFOLIO DASHBOARD, MY PORTFOLIOS and SHARED PORTFOLIOS', async () => {
    await renderSignedIn('/dashboard', makeUser('teacher'));
    expect(mainNavLinks()).toEqual([
      ['PORTFOLIO DASHBOARD', '/dashboard'],
      ['MY PORTFOLIOS', '/my-portfolios'],
      ['SHARED PORTFOLIOS', '/shared-portfolios'],
    ]);
  });

  it('a PLC lead sees the same navigation as a teacher', async () => {
    await renderSignedIn('/dashboard', makeUser('plcLead'));
    expect(mainNavLinks()).toEqual([
      ['PORTFOLIO DASHBOARD', '/dashboard'],
      ['MY PORTFOLIOS', '/my-portfolios'],
      ['SHARED PORTFOLIOS', '/shared-portfolios'],
    ]);
  });

  it('a researcher sees TEACHER PORTFOLIOS instead of MY PORTFOLIOS', async () => {
    await renderSignedIn('/dashboard', makeUser('researcher'));
    expect(mainNavLinks()).toEqual([
      ['PORTFOLIO DASHBOARD', '/dashboard'],
      ['TEACHER PORTFOLIOS', '/teacher-portfolios'],
      ['SHARED PORTFOLIOS', '/shared-portfolios'],
    ]);
  });

  it('an anonymous visitor sees HOME, ABOUT and LOGIN and no user menu', async () => {
    renderApp('/about');
    expect(mainNavLinks()).toEqual([
      ['HOME', '/home'],
      ['ABOUT', '/about'],
      ['LOGIN', '/login'],
    ]);
    expect(screen.queryByRole('button', { expanded: false })).toBeNull();
  });

  it('marks the current section, including pages below it', async () => {
    await renderSignedIn('/shared-portfolios/3/artifacts/9', makeUser('teacher'));
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(nav.getByRole('link', { name: 'SHARED PORTFOLIOS' }).getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('link', { name: 'MY PORTFOLIOS' }).getAttribute('aria-current')).toBeNull();
    expect(nav.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }).getAttribute('aria-current')).toBeNull();
  });

  it('shows the brand, linking home for visitors', () => {
    renderApp('/privacy');
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'PracticeFolio' }).getAttribute('href')).toBe('/home');
  });

  it('shows the brand, linking to the dashboard when signed in', async () => {
    await renderSignedIn('/privacy', makeUser());
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'PracticeFolio' }).getAttribute('href')).toBe('/dashboard');
  });

  it('navigates with the header links', async () => {
    const { location } = await renderSignedIn('/dashboard', makeUser('researcher'));
    await userEvent.click(screen.getByRole('link', { name: 'TEACHER PORTFOLIOS' }));
    await expectPath(location, '/teacher-portfolios');
    await userEvent.click(screen.getByRole('link', { name: 'SHARED PORTFOLIOS' }));
    await expectPath(location, '/shared-portfolios');
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'SHARED PORTFOLIOS' }).getAttribute('aria-current')).toBe('page'),
    );
  });
});
