import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { siteContent } from '../content/siteContent.ts';
import { expectPath, makeUser, renderApp, renderSignedIn, resetApp, testConfig } from '../../test/renderApp.tsx';
import { AppConfigContext } from '../appConfig.ts';
import { HomePage } from './HomePage.tsx';

afterEach(resetApp);

const STORES = {
  iosAppUrl: 'https://apps.apple.com/us/app/practicefolio/id1234567890',
  androidAppUrl: 'https://play.google.com/store/apps/details?id=org.example.practicefolio',
};

describe('Home page (spec §1)', () => {
  it('shows the brand, the tagline and who the portal is for', () => {
    renderApp('/home');
    const main = within(screen.getByRole('main'));
    expect(main.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['PracticeFolio']);
    expect(
      main.getByText(/Collect, annotate, review and collaborate around authentic multimedia evidence of instruction/),
    ).toBeTruthy();
    expect(main.getByRole('heading', { level: 3, name: 'Teachers' })).toBeTruthy();
    expect(main.getByRole('heading', { level: 3, name: 'PLC leads' })).toBeTruthy();
    expect(main.getByRole('heading', { level: 3, name: 'Researchers' })).toBeTruthy();
    expect(document.title).toBe('Home · PracticeFolio');
  });

  it('offers the iOS and Android apps as badges linking to their configured store pages', () => {
    renderApp('/home', { config: STORES });
    const appStore = screen.getByRole('link', { name: 'Download on the App Store' });
    const googlePlay = screen.getByRole('link', { name: 'Get it on Google Play' });
    expect(appStore.getAttribute('href')).toBe(STORES.iosAppUrl);
    expect(googlePlay.getAttribute('href')).toBe(STORES.androidAppUrl);
    expect(within(appStore).getByRole('img').getAttribute('src')).toBe('/badges/app-store.svg');
    expect(within(googlePlay).getByRole('img').getAttribute('src')).toBe('/badges/google-play.svg');
  });

  it('shows only the badges whose store page is configured, and no apps section without any', () => {
    renderApp('/home', { config: { iosAppUrl: STORES.iosAppUrl } });
    expect(screen.getByRole('link', { name: 'Download on the App Store' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Get it on Google Play' })).toBeNull();
    cleanup();
    resetApp();
    renderApp('/home');
    expect(screen.queryByRole('heading', { name: 'Get the mobile apps' })).toBeNull();
    expect(screen.queryByRole('link', { name: /App Store|Google Play/ })).toBeNull();
  });

  it('lists the configured research and technical support contacts, and no contact section without any', () => {
    renderApp('/home', { config: { researchEmail: 'study@university.example', contactEmail: 'help@school.example' } });
    const research = screen.getByRole('link', { name: 'study@university.example' });
    const support = screen.getByRole('link', { name: 'help@school.example' });
    expect(research.getAttribute('href')).toBe('mailto:study@university.example');
    expect(support.getAttribute('href')).toBe('mailto:help@school.example');
    expect(screen.getByText(/Questions about the research/)).toBeTruthy();
    expect(screen.getByText(/Technical support/)).toBeTruthy();
    cleanup();
    resetApp();
    renderApp('/home', { config: { contactEmail: 'help@school.example' } });
    expect(screen.queryByText(/Questions about the research/)).toBeNull();
    expect(screen.getByRole('link', { name: 'help@school.example' })).toBeTruthy();
    cleanup();
    resetApp();
    renderApp('/home');
    expect(screen.queryByRole('heading', { name: 'Contact' })).toBeNull();
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
      contacts: { research: 'Study office', support: 'Help desk' },
      home: {
        ...siteContent.home,
        badges: [{ label: 'Get the iPad app', store: 'ios' as const, image: '/badges/app-store.svg' }],
      },
    };
    render(
      <AppConfigContext.Provider value={{ ...testConfig, ...STORES, contactEmail: 'desk@school.example' }}>
        <HomePage content={content} />
      </AppConfigContext.Provider>,
    );
    expect(screen.getByText('An edited tagline.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get the iPad app' }).getAttribute('href')).toBe(STORES.iosAppUrl);
    expect(screen.queryByRole('link', { name: 'Get it on Google Play' })).toBeNull();
    expect(screen.getByText(/Help desk/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'desk@school.example' })).toBeTruthy();
  });
});
