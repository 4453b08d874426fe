import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { siteContent } from '../content/siteContent.ts';
import { renderApp, resetApp } from '../../test/renderApp.tsx';

afterEach(resetApp);

describe('Privacy page (spec §1)', () => {
  it('states the policy facts of the spec', () => {
    renderApp('/privacy');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Privacy Policy']);
    expect(screen.getByText('Last modified 11/1/21')).toBeTruthy();
    expect(screen.getByText(/No name is entered at registration/)).toBeTruthy();
    expect(screen.getByText(/Usage statistics:/)).toBeTruthy();
    expect(screen.getByText(/Your content:/)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'We do not share your data commercially' })).toBeTruthy();
    expect(screen.getByText(/Researchers on the project read teacher portfolios/)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'How long we keep it' })).toBeTruthy();
    expect(screen.getByText(/delete your account and everything in it/)).toBeTruthy();
  });

  it('gives every section of the content module a heading', () => {
    renderApp('/privacy');
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual([
      ...siteContent.privacy.sections.map((s) => s.heading),
      siteContent.privacy.contactHeading,
    ]);
  });

  it('says where to ask questions or ask for deletion: the configured support address', () => {
    renderApp('/privacy', { config: { contactEmail: 'help@school.example' } });
    expect(screen.getByRole('link', { name: 'help@school.example' }).getAttribute('href')).toBe(
      'mailto:help@school.example',
    );
  });

  it('says whom to ask when no address is configured', () => {
    renderApp('/privacy');
    expect(screen.queryByRole('link', { name: /@/ })).toBeNull();
    expect(screen.getByText(siteContent.privacy.noContactText)).toBeTruthy();
  });
});
