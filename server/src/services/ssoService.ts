import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { ROLE_IDS } from '#schemas/user';
import type { SignInMethods, SsoErrorCode } from '#schemas/sso';
import type { OidcProviderConfig } from '../config/ssoConfig.ts';
import { portfolioRepository } from '../repositories/portfolioRepository.ts';
import { ssoRepository } from '../repositories/ssoRepository.ts';
import { userRepository, type UserRecord } from '../repositories/userRepository.ts';
import type { AuthService, SignIn } from './authService.ts';
import { DEMO_EMAILS } from './authService.ts';
import { isUniqueViolation, type ServiceContext } from './context.ts';
import { hostedDomainHint, judgeClaims, type VerifiedIdentity } from './oidcClaims.ts';
import { createOidcProviders } from './oidcProviders.ts';
import { STARTER_PORTFOLIO_NAME } from './userService.ts';

/** How long a sign-in may stay at the provider before its `state` is no longer accepted. */
export const SSO_LOGIN_TTL_SECONDS = 10 * 60;

/** A sign-in that ends on the login page with a message (`code`); `reason` goes to the log only. */
export class SsoRefusal extends Error {
  override name = 'SsoRefusal';
  constructor(
    readonly code: SsoErrorCode,
    readonly reason: string,
  ) {
    super(reason);
  }
}

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

  const providerOf = (id: string): OidcProviderConfig => {
    const provider = byId.get(id);
    if (!provider) throw new SsoRefusal('failed', `no provider ${id}`);
    return provider;
  };

  /** A username for a new account from the e-mail's local part, made unique. */
  const freeUsername = async (email: string): Promise<string> => {
    const base = email.slice(0, email.indexOf('@')).slice(0, 90) || 'teacher';
    for (let n = 1; n < 50; n += 1) {
      const name = n === 1 ? base : `${base}-${n}`;
      if (!(await userRepository.findByUsername(db, name))) return name;
    }
    return `${base}-${Date.now().toString(36)}`;
  };

  /** The account of the identity: linked before, else the one with its e-mail (linked now), else a new teacher's. */
  const accountFor = async (provider: OidcProviderConfig, identity: VerifiedIdentity): Promise<UserRecord> => {
    const linkedId = await ssoRepository.userOf(db, provider.id, identity.subject);
    if (linkedId !== null) {
      const linked = await userRepository.findById(db, linkedId);
      if (linked) return linked;
    }
    const byEmail = await userRepository.findByEmail(db, identity.email);
    if (byEmail) {
      await ssoRepository.link(db, { userId: byEmail.user.id, provider: provider.id, ...identity });
      return byEmail;
    }
    if (!provider.createAccounts) throw new SsoRefusal('no_account', `no account for ${identity.email}`);
    const username = await freeUsername(identity.email);
    try {
      const user = await db.transaction(async (tx) => {
        const created = await userRepository.create(tx, {
          username,
          email: identity.email,
          roleId: ROLE_IDS.teacher,
          passwordHash: null,
        });
        await portfolioRepository.createFromTemplate(tx, {
          ownerId: created.id,
          name: STARTER_PORTFOLIO_NAME,
          grades: [],
          subject: null,
          topic: null,
        });
        await ssoRepository.link(tx, { userId: created.id, provider: provider.id, ...identity });
        return created;
      });
      ctx.log.info({ userId: user.id, provider: provider.id }, 'account created through single sign-on');
      return (await userRepository.findById(db, user.id))!;
    } catch (error) {
      // The same person's other sign-in made it a moment ago.
      if (isUniqueViolation(error)) {
        const made = await userRepository.findByEmail(db, identity.email);
        if (made) return made;
      }
      throw error;
    }
  };

  return {
    /** What the login page offers. */
    methods(): SignInMethods {
      return {
        providers: config.sso.oidc.map((p) => ({
          id: p.id,
          label: p.label,
          start: `/api/v1/auth/oidc/${p.id}/start`,
        })),
        passwordLogin: config.sso.passwordLogin,
      };
    },

    /** Whether a provider of this id is configured. */
    has: (id: string) => byId.has(id),

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
        const record = await accountFor(provider, verdict.identity);
        if (!ctx.config.demoSignIn && DEMO_EMAILS.has(record.user.email))
          throw new SsoRefusal('no_account', 'a demo account on a reachable server');
        if (record.user.blocked) {
          // Whatever session it still had ends too.
          await userRepository.endAllSessions(db, record.user.id);
          throw new SsoRefusal('blocked', `account ${record.user.id} is blocked`);
        }
        return auth.newSession(record, { ssoProvider: provider.id, persistent: false });
      } catch (error) {
        throw refusalOf(error);
      }
    },

    /** The provider's own sign-out for a session signed in through it, when its discovery publishes one. */
    async providerLogout(id: string | null): Promise<{ label: string; url: string } | undefined> {
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
