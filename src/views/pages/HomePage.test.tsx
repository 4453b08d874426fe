import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from 'styled-components';
import { afterEach, describe, expect, it } from 'vitest';
import { siteContent } from '../content/siteContent.ts';
import { theme } from '../theme/theme.ts';
import { expectPath, makeUser, renderApp, renderSignedIn, resetApp } from '../../test/renderApp.tsx';
import { HomePage } from './HomePage.tsx';

afterEach(resetApp);

describe('Home page (spec §1)', () => {
  it('shows the brand, the tagline and who the portal is for', () => {
    renderApp('/home');
    const main = within(screen.getByRole('main'));
    expect(main.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['PracticeFolio']);
    expect(main.getByText(/Collect, annotate, review and collaborate around authentic multimedia evidence of instruction/)).toBeTruthy();
    expect(main.getByRole('heading', { level: 3, name: 'Teachers' })).toBeTruthy();
    expect(main.getByRole('heading', { level: 3, name: 'PLC leads' })).toBeTruthy();
    expect(main.getByRole('heading', { level: 3, name: 'Researchers' })).toBeTruthy();
    expect(document.title).toBe('Home · PracticeFolio');
  });

  it('offers the iOS and Android apps as store badges', () => {
    renderApp('/home');
    const appStore = screen.getByRole('link', { name: 'Download on the App Store' });
    const googlePlay = screen.getByRole('link', { name: 'Get it on Google Play' });
    expect(appStore.getAttribute('href')).toBe(siteContent.home.badges[0].url);
    expect(googlePlay.getAttribute('href')).toBe(siteContent.home.badges[1].url);
    expect(within(appStore).getByRole('img').getAttribute('src')).toBe('/badges/app-store.svg');
    expect(within(googlePlay).getByRole('img').getAttribute('src')).toBe('/badges/google-play.svg');
  });

  it('lists the research and technical support contacts', () => {
    renderApp('/home');
    const research = screen.getByRole('link', { name: siteContent.contacts.research.email });
    const support = screen.getByRole('link', { name: siteContent.contacts.support.email });
    expect(research.getAttribute('href')).toBe(`mailto:${siteContent.contacts.research.email}`);
    expect(support.getAttribute('href')).toBe(`mailto:${siteContent.contacts.support.email}`);
    expect(screen.getByText(/Questions about the research/)).toBeTruthy();
    expect(screen.getByText(/Technical support/)).toBeTruthy();
  });

  it('leads a visitor to the login screen', async () => {
    const { location } = renderApp('/home');
    const cta = screen.getByRole('link', { name: 'LOGIN TO YOUR PORTFOLIO' });
    expect(cta.getAttribute('href')).toBe('/login');
    await userEvent.click(cta);
    await expectPath(location, '/login');
  });

  it('leads a signed-in user to the dashboard instead', async () => {
    const user = makeUser();
    const { location } = await renderSignedIn('/home', user);
    expect(screen.queryByRole('link', { name: 'LOGIN TO YOUR PORTFOLIO' })).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: `Welcome back, ${user.username}` })).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'OPEN YOUR DASHBOARD' }));
    await expectPath(location, '/dashboard');
  });

  it('says what the content module says', () => {
    const content = {
      ...siteContent,
      brand: { name: 'PracticeFolio', tagline: 'An edited tagline.' },
      contacts: { help: { label: 'Help desk', email: 'desk@school.example' } },
      home: {
        ...siteContent.home,
        badges: [{ label: 'Download on the App Store', url: 'https://apps.example/practicefolio', image: '/badges/app-store.svg' }],
      },
    };
    render(
      <ThemeProvider theme={theme}>
        <HomePage content={content} />
      </ThemeProvider>,
    );
    expect(screen.getByText('An edited tagline.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download on the App Store' }).getAttribute('href')).toBe('https://apps.example/practicefolio');
    expect(screen.queryByRole('link', { name: 'Get it on Google Play' })).toBeNull();
    expect(screen.getByRole('link', { name: 'desk@school.example' })).toBeTruthy();
  });
});
