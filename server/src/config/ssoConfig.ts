import { absoluteUrl, booleanText } from './envValues.ts';
import { samlSettings, type SamlProviderConfig } from './samlConfig.ts';

/**
 * Single sign-on through OpenID Connect providers (`OIDC_PROVIDERS` and `OIDC_<ID>_*`) and SAML
 * identity providers (`SAML_PROVIDERS` and `SAML_<ID>_*`, read in `samlConfig.ts`), and
 * whether the web sign-in page offers the password form (`PASSWORD_LOGIN`). The variables of a
 * provider carry its id, so they are read here rather than in the fixed `EnvSchema`.
 */

/** One OpenID Connect provider as configured. */
export interface OidcProviderConfig {
  /** Lower-case id: in the routes (`/auth/oidc/<id>/…`) and the variables (`OIDC_<ID>_…`). */
  id: string;
  /** The issuer whose discovery document (`/.well-known/openid-configuration`) names the endpoints. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button's words: "Sign in with <label>". */
  label: string;
  /** E-mail domains (lower case) whose people may sign in; empty: any. */
  allowedDomains: string[];
  /** Microsoft Entra ID tenants (ids) whose people may sign in; empty: any tenant the issuer names. */
  allowedTenants: string[];
  /** Whether an unknown person with an allowed domain gets a teacher account. */
  createAccounts: boolean;
}

export interface SsoSettings {
  oidc: OidcProviderConfig[];
  saml: SamlProviderConfig[];
  /** `false`: the web sign-in page shows only the providers (the mobile apps keep their password sign-in). */
  passwordLogin: boolean;
}

const ID = /^[a-z][a-z0-9]{0,30}$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const TENANT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '');

/** Whether an issuer may be reached over plain http: only one on this machine (a provider under test). */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

const issuerUrl = absoluteUrl.refine((v) => v.startsWith('https:') || isLoopbackUrl(v), {
  message: 'must be an https URL (plain http only on this machine)',
});

/**
 * Reads the single sign-on settings; returns them with the problems found (each a line of the
 * configuration error naming its variable).
 */
export function ssoSettings(env: NodeJS.ProcessEnv): { settings: SsoSettings; problems: string[] } {
  const problems: string[] = [];
  const value = (name: string) => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const passwordLogin = booleanText.safeParse(value('PASSWORD_LOGIN') ?? 'true');
  if (!passwordLogin.success) problems.push('PASSWORD_LOGIN: must be true or false');
  const ids = list(value('OIDC_PROVIDERS'));
  const oidc: OidcProviderConfig[] = [];
  for (const id of new Set(ids)) {
    if (!ID.test(id)) {
      problems.push(`OIDC_PROVIDERS: "${id}" must be a lower-case id (letters and digits, starting with a letter)`);
      continue;
    }
    const name = (part: string) => `OIDC_${id.toUpperCase()}_${part}`;
    const required = (part: string) => {
      const v = value(name(part));
      if (v === undefined) problems.push(`${name(part)}: must be set for the provider "${id}"`);
      return v ?? '';
    };
    const issuer = required('ISSUER');
    if (issuer && !issuerUrl.safeParse(issuer).success)
      problems.push(`${name('ISSUER')}: must be an https URL (plain http only on this machine)`);
    const domains = list(value(name('ALLOWED_DOMAINS')));
    for (const d of domains.filter((d) => !DOMAIN.test(d)))
      problems.push(`${name('ALLOWED_DOMAINS')}: "${d}" is not an e-mail domain`);
    const tenants = list(value(name('TENANTS')));
    for (const t of tenants.filter((t) => !TENANT.test(t)))
      problems.push(`${name('TENANTS')}: "${t}" is not a tenant id (a GUID)`);
    const create = booleanText.safeParse(value(name('CREATE_ACCOUNTS')) ?? 'false');
    if (!create.success) problems.push(`${name('CREATE_ACCOUNTS')}: must be true or false`);
    else if (create.data && domains.length === 0)
      problems.push(
        `${name('CREATE_ACCOUNTS')}: accounts are made only for the domains of ${name('ALLOWED_DOMAINS')}; set it`,
      );
    const label = value(name('LABEL')) ?? id;
    if (label.length > 60) problems.push(`${name('LABEL')}: must be at most 60 characters`);
    oidc.push({
      id,
      // Kept exactly as given: the ID token's `iss` must equal the discovered issuer.
      issuer,
      clientId: required('CLIENT_ID'),
      clientSecret: required('CLIENT_SECRET'),
      label,
      allowedDomains: domains,
      allowedTenants: tenants,
      createAccounts: create.success ? create.data : false,
    });
  }
  if (ids.length !== new Set(ids).size) problems.push('OIDC_PROVIDERS: an id is named twice');
  const saml = samlSettings({ value, list, isLoopbackUrl, id: ID, domain: DOMAIN }, problems);
  // One namespace: linked identities and sessions name their provider by id alone.
  for (const p of saml.filter((s) => oidc.some((o) => o.id === s.id)))
    problems.push(`SAML_PROVIDERS: "${p.id}" is an id of OIDC_PROVIDERS too; give each provider its own id`);
  return { settings: { oidc, saml, passwordLogin: passwordLogin.success ? passwordLogin.data : true }, problems };
}

/** No provider, and the password form shown. */
export const NO_SSO: SsoSettings = { oidc: [], saml: [], passwordLogin: true };
