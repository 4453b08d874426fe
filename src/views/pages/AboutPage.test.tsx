import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { siteContent } from '../content/siteContent.ts';
import { renderApp, resetApp } from '../../test/renderApp.tsx';

afterEach(resetApp);

describe('About page (spec §1)', () => {
  it('describes the research project behind the portal', () => {
    renderApp('/about');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['About PracticeFolio']);
    expect(screen.getByText(/Next Generation Science Standards \(NGSS\)/)).toBeTruthy();
    expect(screen.getByText(/funded by a grant from a national science foundation/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Learn More' }).getAttribute('href')).toBe(siteContent.about.learnMore.url);
  });

  it('loads nothing from the video host until the visitor presses play', async () => {
    renderApp('/about');
    expect(document.querySelector('iframe')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Play the introduction video' }));
    const frame = screen.getByTitle(siteContent.about.video.title);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe(
      `https://www.youtube-nocookie.com/embed/${encodeURIComponent(siteContent.about.video.youtubeId)}?autoplay=1&rel=0`,
    );
    expect(document.activeElement).toBe(frame);
    expect(screen.queryByRole('button', { name: 'Play the introduction video' })).toBeNull();
  });

  it('lists the leadership, development, research and advisory teams by role, with initials', () => {
    renderApp('/about');
    const team = screen.getByRole('region', { name: siteContent.about.teamHeading });
    expect(within(team).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Leadership',
      'Development',
      'Research',
      'Advisory',
    ]);
    expect(within(team).getByText('Principal Investigator')).toBeTruthy();
    expect(within(team).getByText('PI').getAttribute('aria-hidden')).toBe('true');
    expect(team.querySelector('img')).toBeNull();
    const memberCount = siteContent.about.team.reduce((sum, section) => sum + section.members.length, 0);
    expect(within(team).getAllByRole('listitem')).toHaveLength(memberCount);
  });

  it('gives the research and support contact addresses', () => {
    renderApp('/about');
    const contact = screen.getByRole('region', { name: 'Contact' });
    expect(within(contact).getByRole('link', { name: siteContent.contacts.research.email })).toBeTruthy();
    expect(within(contact).getByRole('link', { name: siteContent.contacts.support.email })).toBeTruthy();
  });
});
