import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from './apiClient.ts';
import { setApiClient } from './api.ts';
import { DEFAULT_APP_CONFIG, embeddedSignInMethods, loadAppConfig } from './configService.ts';

afterEach(() => {
  document.getElementById('app-config')?.remove();
  document.getElementById('sign-in-methods')?.remove();
  setApiClient(null);
});

const CONFIGURED = {
  showcaseUrl: 'https://show.example.org',
  helpUrl: 'https://help.example.org',
  feedbackUrl: null,
  contactEmail: 'help@school.example',
  researchEmail: null,
  aboutVideoId: 'dQw4w9WgXcQ',
  learnMoreUrl: 'https://show.example.org',
  iosAppUrl: null,
  androidAppUrl: 'https://play.google.com/store/apps/details?id=org.example.app',
};

function embed(value: unknown, id = 'app-config') {
  const script = document.createElement('script');
  script.id = id;
  script.type = 'application/json';
  script.textContent = JSON.stringify(value);
  document.head.append(script);
}

describe('loadAppConfig', () => {
  it('reads the configuration the server embedded in the page', async () => {
    embed(CONFIGURED);
    expect(await loadAppConfig()).toEqual(CONFIGURED);
  });

  it('does not trust an embedded configuration of the wrong shape (it asks the server instead)', async () => {
    embed({ ...CONFIGURED, contactEmail: 42 });
    setApiClient(
      createApiClient({
        baseUrl: 'http://x/api/v1',
        hasSession: () => false,
        fetch: (async () => new Response(JSON.stringify(DEFAULT_APP_CONFIG))) as typeof fetch,
      }),
    );
    expect(await loadAppConfig()).toEqual(DEFAULT_APP_CONFIG);
  });

  it('asks the server when nothing is embedded, and falls back to defaults when it cannot', async () => {
    setApiClient(
      createApiClient({
        baseUrl: 'http://x/api/v1',
        hasSession: () => false,
        fetch: (async () =>
          new Response(
            JSON.stringify({
              ...DEFAULT_APP_CONFIG,
              helpUrl: 'https://h.example.org',
              feedbackUrl: 'https://f.example.org',
            }),
          )) as typeof fetch,
      }),
    );
    expect((await loadAppConfig()).feedbackUrl).toBe('https://f.example.org');
    setApiClient(
      createApiClient({
        baseUrl: 'http://x/api/v1',
        hasSession: () => false,
        fetch: (async () => {
          throw new TypeError('offline');
        }) as typeof fetch,
      }),
    );
    expect(await loadAppConfig()).toEqual(DEFAULT_APP_CONFIG);
  });
});

describe('embeddedSignInMethods', () => {
  const SCHOOL = { id: 'school', label: 'Springfield Schools', start: '/api/v1/auth/oidc/school/start' };

  it('reads the ways to sign in the server embedded in the page (only the fields of the schema)', () => {
    embed({ providers: [{ ...SCHOOL, extra: 'dropped' }], passwordLogin: false }, 'sign-in-methods');
    expect(embeddedSignInMethods()).toEqual({ providers: [SCHOOL], passwordLogin: false });
  });

  it('is null when nothing is embedded, or what is embedded is not of the schema’s shape', () => {
    expect(embeddedSignInMethods()).toBeNull();
    for (const value of [
      null,
      [],
      { providers: [], passwordLogin: 'yes' },
      { providers: {}, passwordLogin: true },
      { providers: [{ ...SCHOOL, label: 7 }], passwordLogin: true },
      { providers: [null], passwordLogin: true },
      { passwordLogin: true },
    ]) {
      document.getElementById('sign-in-methods')?.remove();
      embed(value, 'sign-in-methods');
      expect(embeddedSignInMethods(), JSON.stringify(value)).toBeNull();
    }
    document.getElementById('sign-in-methods')!.textContent = '{not json';
    expect(embeddedSignInMethods()).toBeNull();
  });
});
