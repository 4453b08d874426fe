import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import { GOOGLE_ISSUER } from './oidcClaims.ts';
import { createOidcProviders, TENANT_PLACEHOLDER } from './oidcProviders.ts';
import { checkSamlProvider } from './samlCheck.ts';

/**
 * `npm run admin -- sso check`: reads each provider's discovery document (OpenID Connect) or
 * metadata (SAML) as a sign-in would and
 * says what is wrong with it, or what the portal will use. Returns the report and whether every
 * provider is usable.
 */
export async function checkSso(config: Config, clock: Clock): Promise<{ ok: boolean; report: string }> {
  const { oidc: providers, saml, passwordLogin } = config.sso;
  const lines = [
    `Password sign-in on the portal's pages: ${passwordLogin ? 'shown' : 'hidden (PASSWORD_LOGIN=false; the mobile apps keep it)'}.`,
  ];
  if (providers.length === 0 && saml.length === 0)
    return {
      ok: true,
      report: [...lines, 'No single sign-on provider: neither OIDC_PROVIDERS nor SAML_PROVIDERS is set.'].join('\n'),
    };
  const discovery = createOidcProviders(config.publicUrl, clock);
  let ok = true;
  for (const provider of providers) {
    const problems: string[] = [];
    const notes: string[] = [];
    try {
      const metadata = (await discovery.configuration(provider)).serverMetadata();
      notes.push(`issuer ${metadata.issuer}`, `authorization ${metadata.authorization_endpoint}`);
      if (!metadata.token_endpoint) problems.push('the discovery document names no token endpoint');
      if (!metadata.jwks_uri) problems.push('the discovery document names no signing keys (jwks_uri)');
      const methods = metadata.code_challenge_methods_supported;
      if (methods && !methods.includes('S256')) problems.push('the provider does not support PKCE with S256');
      if (metadata.issuer.includes(TENANT_PLACEHOLDER) && provider.allowedTenants.length === 0)
        problems.push(`a multi-tenant issuer: set OIDC_${provider.id.toUpperCase()}_TENANTS to the tenants allowed`);
      if (metadata.issuer === GOOGLE_ISSUER && provider.allowedDomains.length === 0)
        notes.push(
          'no ALLOWED_DOMAINS: any Google account with a verified address whose e-mail has an account signs in',
        );
      notes.push(
        metadata.end_session_endpoint
          ? `logout offered at ${metadata.end_session_endpoint}`
          : 'the provider publishes no logout (end_session_endpoint)',
      );
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
      problems.push(
        `its discovery document at ${provider.issuer}/.well-known/openid-configuration could not be read: ${error instanceof Error ? error.message : String(error)}${cause}`,
      );
    }
    if (problems.length > 0) ok = false;
    lines.push(
      `${provider.id} ("Sign in with ${provider.label}"): ${problems.length === 0 ? 'OK' : 'PROBLEM'}`,
      ...problems.map((p) => `  - ${p}`),
      ...notes.map((p) => `  ${p}`),
      `  redirect URI to register: ${discovery.redirectUri(provider)}`,
      `  e-mail domains: ${provider.allowedDomains.join(', ') || 'any'}; new accounts: ${provider.createAccounts ? 'made for them' : 'not made'}`,
    );
  }
  for (const provider of saml) {
    const checked = await checkSamlProvider(provider, config.publicUrl, clock.now());
    ok &&= checked.ok;
    lines.push(...checked.lines);
  }
  return { ok, report: lines.join('\n') };
}
