import * as oidc from 'openid-client';
import type { Clock } from '../clock.ts';
import { isLoopbackUrl, type OidcProviderConfig } from '../config/ssoConfig.ts';

/**
 * The configured OpenID Connect providers as `openid-client` talks to them: each provider's
 * discovery document is read once (again after a failure) and its configuration kept, with its
 * signing keys. Token times are judged by the server's clock, with a bounded tolerance. Only a
 * provider on this machine is reached over plain http. Every ID token's signature is verified. Microsoft Entra ID's multi-tenant issuer
 * (`{tenantid}`) is matched against each token's own `tid` by `openid-client`.
 */

/** How far the provider's clock and ours may disagree about a token's times (`iat`, `exp`, `nbf`). */
export const CLOCK_TOLERANCE_SECONDS = 30;
/** How long a request to a provider may take. */
const TIMEOUT_SECONDS = 10;

/** Microsoft Entra ID's multi-tenant endpoints publish an issuer with this placeholder for the tenant. */
export const TENANT_PLACEHOLDER = '{tenantid}';

export interface OidcProviders {
  /** The provider's configuration (its discovery document read, or the one read before). */
  configuration(provider: OidcProviderConfig): Promise<oidc.Configuration>;
  /** The redirect URI registered at the provider. */
  redirectUri(provider: OidcProviderConfig): string;
}

export function createOidcProviders(publicUrl: string, clock: Clock): OidcProviders {
  const discovered = new Map<string, Promise<oidc.Configuration>>();
  return {
    configuration(provider) {
      let found = discovered.get(provider.id);
      if (!found) {
        const metadata: Partial<oidc.ClientMetadata> = {
          client_secret: provider.clientSecret,
          [oidc.clockSkew]: Math.round((clock.now() - Date.now()) / 1000),
          [oidc.clockTolerance]: CLOCK_TOLERANCE_SECONDS,
        };
        found = oidc.discovery(new URL(provider.issuer), provider.clientId, metadata, undefined, {
          // The ID token's signature is checked against the provider's published keys, though it came
          // straight from the token endpoint (which the protocol would let a client skip).
          execute: [
            oidc.enableNonRepudiationChecks,
            ...(isLoopbackUrl(provider.issuer) ? [oidc.allowInsecureRequests] : []),
          ],
          timeout: TIMEOUT_SECONDS,
        });
        discovered.set(provider.id, found);
        // A provider that could not be reached is asked again by the next sign-in.
        found.catch(() => discovered.delete(provider.id));
      }
      return found;
    },
    redirectUri: (provider) => `${publicUrl}/api/v1/auth/oidc/${provider.id}/callback`,
  };
}
