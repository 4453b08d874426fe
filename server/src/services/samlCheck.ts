import type { SamlProviderConfig } from '../config/samlConfig.ts';
import { certificateEnds, parseIdpMetadata, readMetadataText } from './samlMetadata.ts';

/** Warn of a signing certificate that ends within this many days. */
const CERTIFICATE_WARNING_DAYS = 30;

/**
 * The `sso check` lines of one SAML identity provider: its metadata read and parsed as a sign-in
 * would, with what is wrong (`problems`) or what the portal will use, and what to register there.
 */
export async function checkSamlProvider(
  provider: SamlProviderConfig,
  publicUrl: string,
  now: number,
): Promise<{ ok: boolean; lines: string[] }> {
  const problems: string[] = [];
  const notes: string[] = [];
  try {
    const metadata = parseIdpMetadata(await readMetadataText(provider.metadata));
    notes.push(`entity id ${metadata.entityId}`, `sign-in at ${metadata.ssoUrl}`);
    const ends = certificateEnds(metadata.certificates);
    if (ends.every((end) => end === null)) problems.push('no signing certificate of the metadata can be read');
    else if (ends.every((end) => end === null || end.getTime() <= now))
      problems.push('every signing certificate of the metadata has expired');
    for (const end of ends)
      if (end && end.getTime() > now && end.getTime() - now < CERTIFICATE_WARNING_DAYS * 86_400_000)
        notes.push(`a signing certificate ends on ${end.toISOString().slice(0, 10)}: ask for the new one`);
    notes.push(
      metadata.sloUrl
        ? `logout offered at ${metadata.sloUrl}`
        : 'the provider publishes no logout (SingleLogoutService, HTTP-Redirect)',
    );
  } catch (error) {
    problems.push(`its metadata (${provider.metadata}): ${error instanceof Error ? error.message : String(error)}`);
  }
  const base = `${publicUrl}/api/v1/auth/saml/${provider.id}`;
  return {
    ok: problems.length === 0,
    lines: [
      `${provider.id} (SAML, "Sign in with ${provider.label}"): ${problems.length === 0 ? 'OK' : 'PROBLEM'}`,
      ...problems.map((p) => `  - ${p}`),
      ...notes.map((p) => `  ${p}`),
      `  to register at the provider: entity id and metadata ${base}/metadata, assertion consumer ${base}/acs`,
      `  e-mail domains: ${provider.allowedDomains.join(', ')}; new accounts: ${provider.createAccounts ? 'made for them' : 'not made'}`,
    ],
  };
}
