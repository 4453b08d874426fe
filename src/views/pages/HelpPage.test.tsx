import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { siteContent } from '../content/siteContent.ts';
import { expectPath, makeUser, renderApp, renderSignedIn, resetApp } from '../../test/renderApp.tsx';

afterEach(resetApp);

describe('Help page', () => {
  it('is the portal’s own guide, with every section of the content module', () => {
    renderApp('/help');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Help']);
    for (const section of siteContent.help.sections)
      expect(screen.getByRole('heading', { level: 2, name: section.heading })).toBeTruthy();
    expect(screen.getByText(siteContent.help.noContactText)).toBeTruthy();
  });

  it('lists the configured contacts', () => {
    renderApp('/help', { config: { contactEmail: 'help@school.example' } });
    const contact = screen.getByRole('region', { name: siteContent.help.contactHeading });
    expect(within(contact).getByRole('link', { name: 'help@school.example' }).getAttribute('href')).toBe(
      'mailto:help@school.example',
    );
  });

  it('is where the user menu’s Help goes unless HELP_URL names another guide', async () => {
    const { location } = await renderSignedIn('/dashboard', makeUser(), { config: { helpUrl: null } });
    await userEvent.click(screen.getByRole('button', { name: makeUser().username }));
    const help = screen.getByRole('menuitem', { name: 'Help' });
    expect(help.getAttribute('target')).toBeNull();
    await userEvent.click(help);
    await expectPath(location, '/help');
  });
});
