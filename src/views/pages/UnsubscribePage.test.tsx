import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { UnsubscribeRoute } from '../../app/wiring/notificationRoutes.tsx';
import { setApiClient } from '../../services/api.ts';

afterEach(() => {
  setApiClient(null);
  vi.unstubAllGlobals();
});

function renderAt(path: string, answer: (body: unknown) => Response) {
  const bodies: unknown[] = [];
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      urls.push(String(input));
      const body = JSON.parse(String(init.body)) as unknown;
      bodies.push(body);
      return answer(body);
    }),
  );
  const location = memoryLocation({ path });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <UnsubscribeRoute />
    </Router>,
  );
  return { bodies, urls };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('/unsubscribe', () => {
  it('posts the link’s token and says what was turned off, for which address', async () => {
    const { bodies, urls } = renderAt('/unsubscribe?token=abc.def', () =>
      json({ kind: 'comment', email: 't***@example.org' }),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Unsubscribe' })).toBeTruthy();
    expect(
      await screen.findByText('You will no longer receive e-mail about comments at t***@example.org.'),
    ).toBeTruthy();
    expect(bodies).toEqual([{ token: 'abc.def' }]);
    expect(urls[0]).toMatch(/\/api\/v1\/unsubscribe$/);
    expect(screen.getByRole('link', { name: 'Notification Settings' }).getAttribute('href')).toBe(
      '/settings/notifications',
    );
  });

  it('names every kind when the link turned off all e-mail', async () => {
    renderAt('/unsubscribe?token=all.token', () => json({ kind: 'all', email: 't***@example.org' }));
    expect(
      await screen.findByText('You will no longer receive e-mail about any notification at t***@example.org.'),
    ).toBeTruthy();
  });

  it('shows the server’s clear message for a tampered or expired link, and that nothing changed', async () => {
    renderAt('/unsubscribe?token=tampered', () =>
      json({ statusCode: 400, error: 'Bad Request', message: 'This unsubscribe link is not valid.' }, 400),
    );
    const problem = await screen.findByRole('alert');
    expect(problem.querySelector('h2')?.textContent).toBe('This unsubscribe link does not work');
    expect(problem.textContent).toContain('This unsubscribe link is not valid. Nothing was changed.');
  });

  it('says so for an address without a token, without asking the server', async () => {
    const { bodies } = renderAt('/unsubscribe', () => json({}));
    expect((await screen.findByRole('alert')).textContent).toContain('The link has no unsubscribe token.');
    expect(bodies).toEqual([]);
  });
});
