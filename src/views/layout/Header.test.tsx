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

  it('a PLC lead sees a teacher’s navigation and INSIGHTS', async () => {
    await renderSignedIn('/dashboard', makeUser('plcLead'));
    expect(mainNavLinks()).toEqual([
      ['PORTFOLIO DASHBOARD', '/dashboard'],
      ['MY PORTFOLIOS', '/my-portfolios'],
      ['SHARED PORTFOLIOS', '/shared-portfolios'],
      ['INSIGHTS', '/insights'],
    ]);
  });

  it('a researcher sees TEACHER PORTFOLIOS instead of MY PORTFOLIOS, INSIGHTS and RESEARCH EXPORT', async () => {
    await renderSignedIn('/dashboard', makeUser('researcher'));
    expect(mainNavLinks()).toEqual([
      ['PORTFOLIO DASHBOARD', '/dashboard'],
      ['TEACHER PORTFOLIOS', '/teacher-portfolios'],
      ['SHARED PORTFOLIOS', '/shared-portfolios'],
      ['INSIGHTS', '/insights'],
      ['RESEARCH EXPORT', '/research-export'],
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

  it('shows the notification bell to signed-in people only, once its chunk has loaded', async () => {
    await renderSignedIn('/dashboard', makeUser('teacher'));
    const bell = await within(screen.getByRole('banner')).findByRole('button', { name: /^Notifications/ });
    expect(bell.getAttribute('aria-expanded')).toBe('false');
  });

  it('has no bell for a visitor', () => {
    renderApp('/about');
    expect(within(screen.getByRole('banner')).queryByRole('button', { name: /^Notifications/ })).toBeNull();
    expect(within(screen.getByRole('banner')).queryByRole('link', { name: /^Notifications/ })).toBeNull();
  });

  it('marks the current section, including pages below it', async () => {
    await renderSignedIn('/shared-portfolios/3/artifacts/9', makeUser('teacher'));
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(nav.getByRole('link', { name: 'SHARED PORTFOLIOS' }).getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('link', { name: 'MY PORTFOLIOS' }).getAttribute('aria-current')).toBeNull();
    expect(nav.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }).getAttribute('aria-current')).toBeNull();
  });

  it('keeps INSIGHTS current on the coverage map, its second tab for researchers', async () => {
    await renderSignedIn('/coverage', makeUser('researcher'));
    const insights = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'INSIGHTS' });
    expect(insights.getAttribute('aria-current')).toBe('page');
    const tabs = within(await screen.findByRole('navigation', { name: 'Insights' })).getAllByRole('link');
    expect(tabs.map((tab) => [tab.textContent, tab.getAttribute('href'), tab.getAttribute('aria-current')])).toEqual([
      ['Charts', '/insights', null],
      ['Standards coverage', '/coverage', 'page'],
    ]);
  });

  it('shows a PLC lead the charts without the tabs: her coverage maps are on her shared portfolios', async () => {
    await renderSignedIn('/insights', makeUser('plcLead'));
    await screen.findByRole('heading', { level: 1, name: 'Insights' });
    expect(screen.queryByRole('navigation', { name: 'Insights' })).toBeNull();
  });

  it('shows the brand, linking home for visitors', () => {
    renderApp('/privacy');
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'PracticeFolio' }).getAttribute('href')).toBe(
      '/home',
    );
  });

  it('shows the brand, linking to the dashboard when signed in', async () => {
    await renderSignedIn('/privacy', makeUser());
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'PracticeFolio' }).getAttribute('href')).toBe(
      '/dashboard',
    );
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

describe('the phone menu (a disclosure of the navigation and the account’s items)', () => {
  // jsdom applies no media queries: the button is in the page but hidden, as on wide screens (so
  // its name, which is its text, is not computed here).
  const menuButton = () =>
    within(screen.getByRole('banner'))
      .getAllByRole('button', { hidden: true })
      .find((b) => b.textContent === 'Menu')!;

  it('opens and closes with the button, and Escape closes it and gives the focus back', async () => {
    await renderSignedIn('/dashboard', makeUser('teacher'));
    const ux = userEvent.setup();
    const button = menuButton();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(
      within(panel)
        .getAllByRole('link', { hidden: true })
        .map((l) => l.textContent),
    ).toEqual([
      'PORTFOLIO DASHBOARD',
      'MY PORTFOLIOS',
      'SHARED PORTFOLIOS',
      'Notification Settings',
      'Mobile App Password',
      'Help (opens in a new tab)',
    ]);
    await ux.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    within(panel).getAllByRole('link', { hidden: true })[1]!.focus();
    await ux.keyboard('{Escape}');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
    await ux.click(button);
    await ux.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes when a link in it opens another page', async () => {
    const { location } = await renderSignedIn('/dashboard', makeUser('teacher'));
    const ux = userEvent.setup();
    await ux.click(menuButton());
    const panel = document.getElementById(menuButton().getAttribute('aria-controls')!)!;
    await ux.click(
      within(panel)
        .getAllByRole('link', { hidden: true })
        .find((l) => l.textContent === 'SHARED PORTFOLIOS')!,
    );
    await expectPath(location, '/shared-portfolios');
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });
});
