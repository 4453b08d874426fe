import type { AppConfig } from '../schemas/common.ts';
import type { SignInMethods, SignInProvider } from '../schemas/sso.ts';
import { api } from './api.ts';

/** Configuration used until the server's is known (and when it cannot be read). */
export const DEFAULT_APP_CONFIG: AppConfig = {
  showcaseUrl: null,
  helpUrl: null,
  feedbackUrl: null,
  contactEmail: null,
  researchEmail: null,
  aboutVideoId: null,
  learnMoreUrl: null,
  iosAppUrl: null,
  androidAppUrl: null,
};

/** The configuration's fields: each a text or `null`. */
const CONFIG_KEYS = Object.keys(DEFAULT_APP_CONFIG) as (keyof AppConfig)[];

/**
 * The run-time configuration: embedded in the page by the server, or fetched from
 * `GET /config` (the development server does not embed it).
 */
export async function loadAppConfig(): Promise<AppConfig> {
  const embedded = typeof document !== 'undefined' ? document.getElementById('app-config')?.textContent : null;
  if (embedded) {
    const parsed = asAppConfig(safeParse(embedded));
    if (parsed) return parsed;
  }
  try {
    const { AppConfigSchema } = await import('../schemas/common.ts');
    return await api().request({ method: 'GET', path: '/config', schema: AppConfigSchema });
  } catch {
    return DEFAULT_APP_CONFIG; // the links are a convenience; the portal works without them
  }
}

/**
 * The embedded configuration (written into the page by our server, not an API answer) checked
 * without the schema library, so that the first page renders before it loads.
 */
function asAppConfig(value: unknown): AppConfig | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const config = { ...DEFAULT_APP_CONFIG };
  for (const key of CONFIG_KEYS) {
    const field = v[key];
    if (field !== null && typeof field !== 'string') return null;
    config[key] = field;
  }
  return config;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The ways to sign in that the server wrote into the page (`GET /auth/methods` as embedded data,
 * like the configuration: written by our server, not an API answer), checked without the schema
 * library so that the sign-in page is complete without it; `null` when the page has none (the
 * development server) or they are not what the schema describes.
 */
export function embeddedSignInMethods(): SignInMethods | null {
  const text = typeof document !== 'undefined' ? document.getElementById('sign-in-methods')?.textContent : null;
  const value = text ? safeParse(text) : null;
  if (typeof value !== 'object' || value === null) return null;
  const { providers, passwordLogin } = value as Record<string, unknown>;
  if (typeof passwordLogin !== 'boolean' || !Array.isArray(providers)) return null;
  const checked: SignInProvider[] = [];
  for (const provider of providers as unknown[]) {
    if (typeof provider !== 'object' || provider === null) return null;
    const { id, label, start } = provider as Record<string, unknown>;
    if (typeof id !== 'string' || typeof label !== 'string' || typeof start !== 'string') return null;
    checked.push({ id, label, start });
  }
  return { providers: checked, passwordLogin };
}
