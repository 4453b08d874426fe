import type { AppConfig } from '../schemas/common.ts';
import { api } from './api.ts';

/** Configuration used until the server's is known (and when it cannot be read). */
export const DEFAULT_APP_CONFIG: AppConfig = {
  showcaseUrl: null,
  helpUrl: 'https://github.com/practicefolio/practicefolio#user-guide',
  feedbackUrl: null,
};

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
  const link = (x: unknown) => x === null || typeof x === 'string';
  if (!link(v['showcaseUrl']) || typeof v['helpUrl'] !== 'string' || !link(v['feedbackUrl'])) return null;
  return { showcaseUrl: v['showcaseUrl'] as string | null, helpUrl: v['helpUrl'], feedbackUrl: v['feedbackUrl'] as string | null };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
