import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import type { SignInMethods } from '#schemas/sso';
import type { OidcProviderConfig } from '../config/ssoConfig.ts';
import type { SessionOrigin } from '../repositories/sessionRepository.ts';
import { ssoRepository } from '../repositories/ssoRepository.ts';
import type { AuthService, SignIn } from './authService.ts';
import type { ServiceContext } from './context.ts';
import { hostedDomainHint, judgeClaims } from './oidcClaims.ts';
import { createOidcProviders } from './oidcProviders.ts';
import { createSamlService } from './samlService.ts';
import { createSsoAccounts } from './ssoAccounts.ts';
import { SsoRefusal } from './ssoRefusal.ts';

/** How long a sign-in may stay at the provider before its `state` is no longer accepted. */
export const SSO_LOGIN_TTL_SECONDS = 10 * 60;

export { SsoRefusal };

const hashState = (state: string) => createHash('sha256').update(state).digest('base64url');

/** The start of a sign-in: where the browser goes, and the `state` its cookie binds to it. */
export interface SsoStart {
  url: string;
  state: string;
}

/** Why `openid-client` refused a callback, as the login page says it. */
function refusalOf(error: unknown): SsoRefusal {
  if (error instanceof SsoRefusal) return error;
  if (error instanceof oidc.AuthorizationResponseError)
    return new SsoRefusal(error.error === 'access_denied' ? 'cancelled' : 'failed', `provider: ${error.error}`);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const message = `${error instanceof Error ? error.message : String(error)}${cause}`;
  // A token whose times are past (or not yet) by more than the tolerance: the sign-in took too long.
  if ((error as { code?: unknown }).code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED')
    return new SsoRefusal('expired', message);
  if (error instanceof oidc.ClientError || error instanceof oidc.ResponseBodyError)
    return new SsoRefusal('failed', message);
  return new SsoRefusal('unavailable', message);
}

/** Single sign-on through OpenID Connect providers: start, callback, the accounts it links or makes. */
export function createSsoService(ctx: ServiceContext, auth: AuthService) {
  const { db, config } = ctx;
  const providers = createOidcProviders(config.publicUrl, ctx.clock);
  const byId = new Map(config.sso.oidc.map((p) => [p.id, p]));
  const accounts = createSsoAccounts(ctx, auth);
  const saml = createSamlService(ctx, accounts);

  const providerOf = (id: string): OidcProviderConfig => {
    const provider = byId.get(id);
    if (!provider) throw new SsoRefusal('failed', `no provider ${id}`);
    return provider;
  };

  return {
    /** What the login page offers. */
    methods(): SignInMethods {
      return {
        providers: [
          ...config.sso.oidc.map((p) => ({ id: p.id, label: p.label, start: `/api/v1/auth/oidc/${p.id}/start` })),
          ...config.sso.saml.map((p) => ({ id: p.id, label: p.label, start: `/api/v1/auth/saml/${p.id}/start` })),
        ],
        passwordLogin: config.sso.passwordLogin,
      };
    },

    /** Whether an OpenID Connect provider of this id is configured. */
    has: (id: string) => byId.has(id),

    /** The SAML identity providers. */
    saml,

    /**
     * Starts a sign-in: a new `state`, nonce and PKCE verifier kept here (the verifier and nonce
     * never leave the server), and the provider's authorization URL.
     * @throws SsoRefusal `unavailable` when the provider cannot be reached.
     */
    async start(id: string): Promise<SsoStart> {
      const provider = providerOf(id);
      let configuration: oidc.Configuration;
      try {
        configuration = await providers.configuration(provider);
      } catch (error) {
        throw new SsoRefusal('unavailable', `discovery: ${error instanceof Error ? error.message : String(error)}`);
      }
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      await ssoRepository.startLogin(db, {
        stateHash: hashState(state),
        provider: provider.id,
        codeVerifier,
        nonce,
        ttlSeconds: SSO_LOGIN_TTL_SECONDS,
      });
      const issuer = configuration.serverMetadata().issuer;
      const hd = hostedDomainHint(provider, issuer);
      const url = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: providers.redirectUri(provider),
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...(hd ? { hd } : {}),
      });
      return { url: url.href, state };
    },

    /**
     * Completes a sign-in from the provider's answer (`query`): the state must be the one this
     * browser started (`cookieState`) and not used before; the code is exchanged with the PKCE
     * verifier; the ID token's signature, issuer, audience, times and nonce are checked, then its
     * claims (`judgeClaims`). The account is found or made; a blocked one is refused.
     * @throws SsoRefusal with the login page's message code.
     */
    async callback(id: string, query: Record<string, string>, cookieState: string | undefined): Promise<SignIn> {
      const provider = providerOf(id);
      const state = query['state'];
      if (!state || !cookieState || state !== cookieState)
        throw new SsoRefusal('expired', 'the state is not the one this browser started');
      const login = await ssoRepository.takeLogin(db, hashState(state), provider.id);
      if (!login) throw new SsoRefusal('expired', 'the state is unknown, used or expired');
      try {
        const configuration = await providers.configuration(provider);
        const current = new URL(providers.redirectUri(provider));
        for (const [k, v] of Object.entries(query)) current.searchParams.set(k, v);
        const tokens = await oidc.authorizationCodeGrant(configuration, current, {
          pkceCodeVerifier: login.codeVerifier,
          expectedState: state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new SsoRefusal('failed', 'no ID token');
        const verdict = judgeClaims(claims, provider, configuration.serverMetadata().issuer);
        if (!verdict.ok) throw new SsoRefusal(verdict.code, verdict.reason);
        return await accounts.signIn(provider, verdict.identity);
      } catch (error) {
        throw refusalOf(error);
      }
    },

    /**
     * The provider's own sign-out for a session signed in through it (`origin`), when the
     * provider publishes one: OpenID Connect's end-session endpoint, SAML's single logout service.
     */
    async providerLogout(origin: SessionOrigin): Promise<{ label: string; url: string } | undefined> {
      const id = origin.ssoProvider;
      if (id && saml.has(id)) return saml.providerLogout(id, origin.ssoLogout);
      const provider = id ? byId.get(id) : undefined;
      if (!provider) return undefined;
      try {
        const configuration = await providers.configuration(provider);
        if (!configuration.serverMetadata().end_session_endpoint) return undefined;
        const url = oidc.buildEndSessionUrl(configuration, {
          client_id: provider.clientId,
          post_logout_redirect_uri: `${config.publicUrl}/login`,
        });
        return { label: provider.label, url: url.href };
      } catch {
        return undefined;
      }
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
