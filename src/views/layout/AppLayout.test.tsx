import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser, renderApp, renderSignedIn, resetApp } from '../../test/renderApp.tsx';

afterEach(resetApp);

describe('skip link', () => {
  it('is the first thing the keyboard reaches and targets #main-content', async () => {
    renderApp('/home');
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(document.activeElement).toBe(skip);
    expect(skip.getAttribute('href')).toBe('#main-content');
    const main = document.getElementById('main-content');
    expect(main).toBe(screen.getByRole('main'));
    // Focusable by script (so the skip lands there) but not a tab stop of its own.
    expect(main?.getAttribute('tabindex')).toBe('-1');
    expect(main?.contains(screen.getByRole('heading', { level: 1 }))).toBe(true);
  });

  it('is there for signed-in users too', async () => {
    await renderSignedIn('/dashboard', makeUser());
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Skip to main content' }));
  });
});

describe('layout landmarks', () => {
  it('has one banner, one main region and one content info', async () => {
    await renderSignedIn('/dashboard', makeUser());
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getAllByRole('banner')).toHaveLength(1);
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(screen.getAllByRole('contentinfo')).toHaveLength(1);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });
});
