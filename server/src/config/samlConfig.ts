import { booleanText } from './envValues.ts';

/** One SAML 2.0 identity provider as configured (`SAML_PROVIDERS` and `SAML_<ID>_*`). */
export interface SamlProviderConfig {
  /** Lower-case id: in the routes (`/auth/saml/<id>/…`) and the variables (`SAML_<ID>_…`). */
  id: string;
  /** The identity provider's metadata: an https URL (plain http only on this machine) or a file's path. */
  metadata: string;
  /** The button's words: "Sign in with <label>". */
  label: string;
  /** E-mail domains (lower case) whose people may sign in; required (an IdP asserts any address it likes). */
  allowedDomains: string[];
  /** Whether an unknown person with an allowed domain gets a teacher account. */
  createAccounts: boolean;
}

/** What the SSO settings reader shares with this one: its helpers and the rules of ids and domains. */
export interface SettingsReader {
  value(name: string): string | undefined;
  list(text: string | undefined): string[];
  isLoopbackUrl(url: string): boolean;
  id: RegExp;
  domain: RegExp;
}

/** Reads `SAML_PROVIDERS` and each `SAML_<ID>_*`; problems are pushed to `problems`, one per line. */
export function samlSettings(read: SettingsReader, problems: string[]): SamlProviderConfig[] {
  const ids = read.list(read.value('SAML_PROVIDERS'));
  const providers: SamlProviderConfig[] = [];
  for (const id of new Set(ids)) {
    if (!read.id.test(id)) {
      problems.push(`SAML_PROVIDERS: "${id}" must be a lower-case id (letters and digits, starting with a letter)`);
      continue;
    }
    const name = (part: string) => `SAML_${id.toUpperCase()}_${part}`;
    const metadata = read.value(name('METADATA')) ?? '';
    if (metadata === '') problems.push(`${name('METADATA')}: must be set for the provider "${id}" (a URL or a file)`);
    else if (/^[a-z]+:\/\//i.test(metadata)) {
      const url = URL.parse(metadata);
      if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && read.isLoopbackUrl(metadata))))
        problems.push(`${name('METADATA')}: must be an https URL (plain http only on this machine) or a file`);
    }
    const domains = read.list(read.value(name('ALLOWED_DOMAINS')));
    if (domains.length === 0)
      problems.push(`${name('ALLOWED_DOMAINS')}: must name the e-mail domains the identity provider speaks for`);
    for (const d of domains.filter((d) => !read.domain.test(d)))
      problems.push(`${name('ALLOWED_DOMAINS')}: "${d}" is not an e-mail domain`);
    const create = booleanText.safeParse(read.value(name('CREATE_ACCOUNTS')) ?? 'false');
    if (!create.success) problems.push(`${name('CREATE_ACCOUNTS')}: must be true or false`);
    const label = read.value(name('LABEL')) ?? id;
    if (label.length > 60) problems.push(`${name('LABEL')}: must be at most 60 characters`);
    providers.push({
      id,
      metadata,
      label,
      allowedDomains: domains,
      createAccounts: create.success ? create.data : false,
    });
  }
  if (ids.length !== new Set(ids).size) problems.push('SAML_PROVIDERS: an id is named twice');
  return providers;
}
