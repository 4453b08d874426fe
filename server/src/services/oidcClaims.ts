import type { SsoErrorCode } from '#schemas/sso';
import type { OidcProviderConfig } from '../config/ssoConfig.ts';
import { TENANT_PLACEHOLDER } from './oidcProviders.ts';

/**
 * What the portal asks of an ID token beyond the protocol's own checks (signature, issuer,
 * audience, times, nonce: `openid-client`): a verified e-mail address of an allowed domain; for
 * Google Workspace the hosted domain (`hd`) of the token, not of the request; for Microsoft Entra
 * ID an allow-listed tenant (`tid`) whose own issuer signed the token.
 */

/** Google's issuer: its tokens name the Workspace domain in `hd` (absent for personal accounts). */
export const GOOGLE_ISSUER = 'https://accounts.google.com';

/** The person an ID token vouches for. */
export interface VerifiedIdentity {
  subject: string;
  email: string;
  domain: string;
}

export type ClaimsVerdict =
  { ok: true; identity: VerifiedIdentity } | { ok: false; code: SsoErrorCode; reason: string };

const refuse = (code: SsoErrorCode, reason: string): ClaimsVerdict => ({ ok: false, code, reason });

/**
 * Judges the claims of an ID token that passed the protocol checks.
 * @param issuer the issuer the provider's discovery document published (Entra: with `{tenantid}`).
 */
export function judgeClaims(
  claims: Record<string, unknown>,
  provider: OidcProviderConfig,
  issuer: string,
): ClaimsVerdict {
  const { sub, email, iss, tid, hd } = claims;
  if (typeof sub !== 'string' || sub === '' || sub.length > 255) return refuse('failed', 'no usable subject');
  // Entra ID: a token of some tenant is signed with that tenant's own issuer; only allow-listed tenants count.
  const templated = issuer.includes(TENANT_PLACEHOLDER);
  if (templated || provider.allowedTenants.length > 0) {
    if (typeof tid !== 'string') return refuse('wrong_tenant', 'no tenant (tid) in the token');
    if (!provider.allowedTenants.includes(tid.toLowerCase()))
      return refuse('wrong_tenant', `tenant ${tid} is not allowed`);
    if (templated && iss !== issuer.replace(TENANT_PLACEHOLDER, tid))
      return refuse('failed', `issuer ${String(iss)} is not the tenant's own`);
  }
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254)
    return refuse('unverified_email', 'no e-mail address');
  // Only an address the provider verified is trusted (Entra ID says so with `xms_edov`).
  if (claims['email_verified'] !== true && claims['xms_edov'] !== true)
    return refuse('unverified_email', 'the e-mail address is not verified');
  const lower = email.toLowerCase();
  const domain = lower.slice(lower.lastIndexOf('@') + 1);
  const allowed = provider.allowedDomains;
  if (allowed.length > 0 && !allowed.includes(domain)) return refuse('wrong_domain', `domain ${domain} is not allowed`);
  // Google Workspace: the request's `hd` only picks the account chooser; the token's `hd` proves it.
  if (allowed.length > 0 && (issuer === GOOGLE_ISSUER || hd !== undefined)) {
    if (typeof hd !== 'string' || !allowed.includes(hd.toLowerCase()))
      return refuse('wrong_domain', `hosted domain ${String(hd)} is not allowed`);
  }
  return { ok: true, identity: { subject: sub, email: lower, domain } };
}

/** The `hd` the authorization request sends to Google: the one allowed domain, or any Workspace domain. */
export function hostedDomainHint(provider: OidcProviderConfig, issuer: string): string | null {
  if (issuer !== GOOGLE_ISSUER || provider.allowedDomains.length === 0) return null;
  return provider.allowedDomains.length === 1 ? provider.allowedDomains[0]! : '*';
}
