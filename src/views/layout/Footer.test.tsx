import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { siteContent } from '../content/siteContent.ts';
import { expectPath, makeUser, renderApp, renderSignedIn, resetApp } from '../../test/renderApp.tsx';

afterEach(resetApp);

const footerLinks = () =>
  within(screen.getByRole('contentinfo'))
    .getAllByRole('link')
    .map((link) => link.textContent);

const FEEDBACK = 'https://forms.example.org/feedback';

describe('footer (spec §1)', () => {
  it('shows the copyright line and links to Privacy Policy, Home and About', () => {
    renderApp('/about');
    const footer = within(screen.getByRole('contentinfo'));
    expect(footer.getByText(siteContent.footer.copyright)).toBeTruthy();
    expect(siteContent.footer.copyright).toMatch(/^© \d{4} PracticeFolio\./);
    expect(footer.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    expect(footer.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/home');
    expect(footer.getByRole('link', { name: 'About' }).getAttribute('href')).toBe('/about');
  });

  it('shows Give Feedback when logged in and a feedback form is configured', async () => {
    await renderSignedIn('/dashboard', makeUser(), { config: { feedbackUrl: FEEDBACK } });
    expect(footerLinks()).toEqual(['Privacy Policy', 'Home', 'About', 'Give Feedback (opens in a new tab)']);
    const feedback = within(screen.getByRole('contentinfo')).getByRole('link', {
      name: 'Give Feedback (opens in a new tab)',
    });
    expect(feedback.getAttribute('href')).toBe(FEEDBACK);
    expect(feedback.getAttribute('target')).toBe('_blank');
  });

  it('hides Give Feedback from anonymous visitors even when a form is configured', () => {
    renderApp('/about', { config: { feedbackUrl: FEEDBACK } });
    expect(footerLinks()).toEqual(['Privacy Policy', 'Home', 'About']);
  });

  it('hides Give Feedback when no form is configured, even when logged in', async () => {
    await renderSignedIn('/dashboard', makeUser(), { config: { feedbackUrl: null } });
    expect(footerLinks()).toEqual(['Privacy Policy', 'Home', 'About']);
  });

  it('navigates within the portal', async () => {
    const { location } = renderApp('/home');
    await userEvent.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Privacy Policy' }));
    await expectPath(location, '/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
  });
});
