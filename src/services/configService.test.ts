import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from './apiClient.ts';
import { setApiClient } from './api.ts';
import { DEFAULT_APP_CONFIG, loadAppConfig } from './configService.ts';

afterEach(() => {
  document.getElementById('app-config')?.remove();
  setApiClient(null);
});

describe('loadAppConfig', () => {
  it('reads the configuration the server embedded in the page', async () => {
    const script = document.createElement('script');
    script.id = 'app-config';
    script.type = 'application/json';
    script.textContent = JSON.stringify({ showcaseUrl: 'https://show.example.org', helpUrl: 'https://help.example.org', feedbackUrl: null });
    document.head.append(script);
    expect(await loadAppConfig()).toEqual({ showcaseUrl: 'https://show.example.org', helpUrl: 'https://help.example.org', feedbackUrl: null });
  });

  it('asks the server when nothing is embedded, and falls back to defaults when it cannot', async () => {
    setApiClient(
      createApiClient({
        baseUrl: 'http://x/api/v1',
        getToken: () => null,
        fetch: (async () => new Response(JSON.stringify({ showcaseUrl: null, helpUrl: 'https://h.example.org', feedbackUrl: 'https://f.example.org' }))) as typeof fetch,
      }),
    );
    expect((await loadAppConfig()).feedbackUrl).toBe('https://f.example.org');
    setApiClient(
      createApiClient({
        baseUrl: 'http://x/api/v1',
        getToken: () => null,
        fetch: (async () => {
          throw new TypeError('offline');
        }) as typeof fetch,
      }),
    );
    expect(await loadAppConfig()).toEqual(DEFAULT_APP_CONFIG);
  });
});
