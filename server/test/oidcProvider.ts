import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { decodeJwt, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A real OpenID provider (`oidc-provider`) on a loopback port, for the single sign-on tests: its
 * discovery, authorization, token and JWKS endpoints are the library's own. Its sign-in page is
 * replaced by one that signs in the person the test chose (`signInAs`), or cancels. A test may
 * make it misbehave: `alterIdToken` re-signs each ID token it issues, changed, with its own key
 * (or changes it without signing again: a tampered signature).
 */

/** A person at the provider: the claims of their ID token. */
export interface ProviderAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  hd?: string;
  tid?: string;
}

/** A change to the ID tokens: new claims (signed again), or `tamper` (the payload changed, the signature kept). */
export type IdTokenChange = { claims: (claims: JWTPayload) => JWTPayload } | { tamper: true };

export interface TestOidcProvider {
  issuer: string;
  /** Who signs in at the provider's page from now on; `null`: the person cancels. */
  signInAs(account: ProviderAccount | null): void;
  /** How the ID tokens are changed from now on; `null`: not at all. */
  alterIdToken(change: IdTokenChange | null): void;
  close(): Promise<void>;
}

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUri?: string;
}

export async function startOidcProvider(clients: TestClient[]): Promise<TestOidcProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, ProviderAccount>();
  let current: ProviderAccount | null = null;
  let change: IdTokenChange | null = null;

  const configuration: Configuration = {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: [c.redirectUri],
      post_logout_redirect_uris: c.postLogoutRedirectUri ? [c.postLogoutRedirectUri] : [],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['hd', 'tid'] },
    // The claims go into the ID token itself (the portal reads nothing else).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // The provider's sign-out question as a plain page (the library's own loads web fonts).
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.body = `<!doctype html><html lang="en"><head><title>Sign out</title></head><body>${form}<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button></body></html>`;
        },
      },
    },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined;
    },
    // First-party: every scope is granted without a consent page.
    async loadExistingGrant(ctx) {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || !ctx.oidc.client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  };
  // The issuer names the port, so the server listens before the provider is made.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, configuration);
  const key = await importJWK(jwk, 'RS256');

  provider.use(async (ctx, next) => {
    // A browser at the provider's pages asks for an icon; there is none.
    if (ctx.path === '/favicon.ico') {
      ctx.status = 204;
      return;
    }
    if (ctx.path.startsWith('/interaction/')) {
      await provider.interactionDetails(ctx.req, ctx.res);
      const result = current
        ? { login: { accountId: current.sub } }
        : { error: 'access_denied', error_description: 'End-User aborted interaction' };
      ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false }));
      return;
    }
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && change && body?.id_token) body.id_token = await altered(body.id_token, change, key);
  });
  server.on('request', provider.callback());

  return {
    issuer,
    signInAs(account) {
      if (account) accounts.set(account.sub, account);
      current = account;
    },
    alterIdToken(next) {
      change = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function altered(idToken: string, change: IdTokenChange, key: CryptoKey | Uint8Array): Promise<string> {
  const claims = decodeJwt(idToken);
  if ('tamper' in change) {
    const [header, , signature] = idToken.split('.');
    const payload = Buffer.from(JSON.stringify({ ...claims, email: 'someone.else@school.example' })).toString(
      'base64url',
    );
    return `${header}.${payload}.${signature}`;
  }
  return new SignJWT(change.claims(claims)).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(key);
}

/**
 * A browser at the provider: follows its redirects (with its cookies) from the authorization URL
 * until it is sent back to the portal; returns that callback URL.
 */
export async function throughProvider(authorizationUrl: string, portalUrl: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hops = 0; hops < 10; hops += 1) {
    if (url.startsWith(portalUrl)) return new URL(url);
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`The provider answered ${res.status} at ${url}: ${await res.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('The provider did not send the browser back');
}
