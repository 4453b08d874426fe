import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { siteContent } from '../content/siteContent.ts';
import { renderApp, resetApp } from '../../test/renderApp.tsx';

afterEach(resetApp);

const CONFIGURED = {
  aboutVideoId: 'dQw4w9WgXcQ',
  learnMoreUrl: 'https://project.example.net/',
  researchEmail: 'study@university.example',
  contactEmail: 'help@school.example',
};

describe('About page (spec §1)', () => {
  it('describes the research project behind the portal, with Learn More to the configured site', () => {
    renderApp('/about', { config: CONFIGURED });
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['About PracticeFolio']);
    expect(screen.getByText(/Next Generation Science Standards \(NGSS\)/)).toBeTruthy();
    expect(screen.getByText(/funded by a grant from a national science foundation/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Learn More' }).getAttribute('href')).toBe(CONFIGURED.learnMoreUrl);
  });

  it('shows no video, no Learn More and no contacts when none is configured (nothing that looks like a placeholder)', () => {
    renderApp('/about');
    expect(screen.queryByRole('button', { name: 'Play the introduction video' })).toBeNull();
    expect(screen.queryByRole('region', { name: siteContent.about.video.heading })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Learn More' })).toBeNull();
    expect(screen.queryByText(siteContent.about.learnMore.text)).toBeNull();
    expect(screen.queryByRole('region', { name: 'Contact' })).toBeNull();
    expect(document.body.textContent).not.toMatch(/REPLACE|example\.org/);
  });

  it('loads nothing from the video host until the visitor presses play', async () => {
    renderApp('/about', { config: CONFIGURED });
    expect(document.querySelector('iframe')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Play the introduction video' }));
    const frame = screen.getByTitle(siteContent.about.video.title);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe(
      `https://www.youtube-nocookie.com/embed/${CONFIGURED.aboutVideoId}?autoplay=1&rel=0`,
    );
    expect(document.activeElement).toBe(frame);
    expect(screen.queryByRole('button', { name: 'Play the introduction video' })).toBeNull();
  });

  it('lists the leadership, development, research and advisory teams by role, with initials', () => {
    renderApp('/about');
    const team = screen.getByRole('region', { name: siteContent.about.teamHeading });
    expect(
      within(team)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Leadership', 'Development', 'Research', 'Advisory']);
    expect(within(team).getByText('Principal Investigator')).toBeTruthy();
    expect(within(team).getByText('PI').getAttribute('aria-hidden')).toBe('true');
    expect(team.querySelector('img')).toBeNull();
    const memberCount = siteContent.about.team.reduce((sum, section) => sum + section.members.length, 0);
    expect(within(team).getAllByRole('listitem')).toHaveLength(memberCount);
  });

  it('gives the configured research and support contact addresses', () => {
    renderApp('/about', { config: CONFIGURED });
    const contact = screen.getByRole('region', { name: 'Contact' });
    expect(within(contact).getByRole('link', { name: 'study@university.example' })).toBeTruthy();
    expect(within(contact).getByRole('link', { name: 'help@school.example' })).toBeTruthy();
  });
});
