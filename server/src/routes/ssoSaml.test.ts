import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SignInMethodsSchema } from '#schemas/sso';
import { countRows, createUser } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { postToAcs, samlFixture, samlSignIn } from '../../test/samlKit.ts';
import type { AssertionChange, SamlPerson } from '../../test/samlIdp.ts';
import { expectRefused, freshAddress, sessionCookie } from '../../test/ssoKit.ts';

/**
 * SAML 2.0 single sign-on (issue 28) against a real identity provider on loopback that signs its
 * assertions: the sign-in links to the account of the asserted e-mail, and every assertion that is
 * unsigned, tampered, meant for someone else, expired, replayed or not an answer to our request
 * ends on the login page with a message code and no session.
 */

const { idp, providers } = await samlFixture();
const t = await buildTestApp({ sso: { oidc: [], saml: providers, passwordLogin: true } });
const WEB = { 'x-practicefolio-client': 'web' };

let n = 0;
/** A person at the identity provider with an address of the allowed domain (changed by `extra`). */
const person = (extra: Partial<SamlPerson> = {}): SamlPerson => {
  n += 1;
  return { nameId: `saml-person-${n}`, email: `saml.teacher${n}@school.example`, ...extra };
};
const me = (token: string) => t.api({ method: 'GET', url: '/users/me', cookies: { jwt: token }, headers: WEB });
const sessions = () => countRows(t, 'sessions');

describe('the SAML routes', () => {
  it('/auth/methods names the SAML providers with their start', async () => {
    const methods = SignInMethodsSchema.parse((await t.api({ method: 'GET', url: '/auth/methods' })).json());
    expect(methods.providers).toEqual([
      { id: 'district', label: 'District ADFS', start: '/api/v1/auth/saml/district/start' },
      { id: 'shib', label: 'Shibboleth', start: '/api/v1/auth/saml/shib/start' },
    ]);
  });

  it('the portal’s metadata names its entity id, assertion consumer and logout, and wants signed assertions', async () => {
    const res = await t.api({ method: 'GET', url: '/auth/saml/district/metadata' });
    expect(res).toHaveStatus(200);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.body).toContain('entityID="http://portal.test/api/v1/auth/saml/district/metadata"');
    expect(res.body).toContain('Location="http://portal.test/api/v1/auth/saml/district/acs"');
    expect(res.body).toContain('Location="http://portal.test/api/v1/auth/saml/district/logout"');
    expect(res.body).toContain('WantAssertionsSigned="true"');
  });

  it('the start redirects to the provider with an AuthnRequest whose id is kept for the answer', async () => {
    const res = await t.api({ method: 'GET', url: '/auth/saml/district/start', remoteAddress: freshAddress() });
    expect(res).toHaveStatus(303);
    const url = new URL(String(res.headers.location));
    expect(url.href.startsWith(idp.metadataUrl.replace('/metadata', '/sso'))).toBe(true);
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString();
    const id = /ID="([^"]+)"/.exec(request)![1]!;
    expect(request).toContain('AssertionConsumerServiceURL="http://portal.test/api/v1/auth/saml/district/acs"');
    const { rows } = await t.db.query('SELECT provider FROM saml_requests WHERE request_id = $1', [id]);
    expect(rows).toEqual([{ provider: 'district' }]);
  });

  it('the OpenAPI document describes the SAML routes, the assertion consumer taking a form', async () => {
    const doc = (await t.api({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['start', 'metadata', 'logout'])
      expect(doc.paths[`/api/v1/auth/saml/{provider}/${path}`].get.tags).toEqual(['auth']);
    const acs = doc.paths['/api/v1/auth/saml/{provider}/acs'].post;
    expect(Object.keys(acs.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(acs.requestBody.content['application/x-www-form-urlencoded'].schema).toMatchObject({
      additionalProperties: false,
      required: ['SAMLResponse'],
    });
  });

  it('an unknown provider is 404; a malformed id, an unknown field or a missing response 400', async () => {
    expect(await t.api({ method: 'GET', url: '/auth/saml/nowhere/start' })).toBeApiError(404);
    expect(await t.api({ method: 'GET', url: '/auth/saml/Bad-Id/metadata' })).toBeApiError(400);
    const form = (payload: string) =>
      t.api({
        method: 'POST',
        url: '/auth/saml/district/acs',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    expect(await form('SAMLResponse=abc&extra=1')).toBeApiError(400);
    expect(await form('RelayState=x')).toBeApiError(400);
    expect(await form('SAMLResponse=a&SAMLResponse=b')).toBeApiError(400);
  });
});

describe('signing in through the identity provider', () => {
  it('the first sign-in links to the account of the asserted e-mail; the next ones use the link', async () => {
    const teacher = await createUser(t, { email: 'saml.linked@school.example' });
    const account = person({ email: 'SAML.Linked@school.example' });
    const first = await samlSignIn(t, idp, 'district', account);
    expect(first.res).toHaveStatus(303);
    expect(first.res.headers.location).toBe('/dashboard');
    expect((await me(sessionCookie(first.res)!)).json().id).toBe(teacher.user.id);
    const { rows } = await t.db.query(
      'SELECT user_id, provider, subject, email FROM linked_identities WHERE subject = $1',
      [account.nameId],
    );
    expect(rows).toEqual([
      { user_id: teacher.user.id, provider: 'district', subject: account.nameId, email: 'saml.linked@school.example' },
    ]);
    const again = await samlSignIn(t, idp, 'district', { ...account, email: 'renamed@school.example' });
    expect((await me(sessionCookie(again.res)!)).json().id).toBe(teacher.user.id);
  });

  it('logout ends the session and offers the provider’s single logout for its NameID and SessionIndex', async () => {
    await createUser(t, { email: 'saml.logout@school.example' });
    const account = person({ email: 'saml.logout@school.example' });
    const token = sessionCookie((await samlSignIn(t, idp, 'district', account)).res)!;
    const out = await t.api({
      method: 'POST',
      url: '/auth/logout',
      cookies: { jwt: token },
      headers: { ...WEB, origin: 'http://portal.test' },
      payload: {},
    });
    expect(out).toHaveStatus(200);
    expect(out.json().providerLogout.label).toBe('District ADFS');
    expect(await me(token)).toBeApiError(401);
    const before = idp.logouts.length;
    const back = await fetch(out.json().providerLogout.url, { redirect: 'manual' });
    expect(idp.logouts.slice(before)).toEqual([
      { nameId: account.nameId, sessionIndex: expect.stringMatching(/^_session-/) },
    ]);
    const returned = new URL(back.headers.get('location')!);
    expect(returned.pathname).toBe('/api/v1/auth/saml/district/logout');
    const landing = await t.api({ method: 'GET', url: `/auth/saml/district/logout${returned.search}` });
    expect(landing).toHaveStatus(303);
    expect(landing.headers.location).toBe('/login');
  });

  it('an unknown person gets a teacher account only where the provider makes them', async () => {
    const stranger = person();
    const before = await countRows(t, 'users');
    expectRefused((await samlSignIn(t, idp, 'district', stranger)).res, 'no_account');
    expect(await countRows(t, 'users')).toBe(before);
    const made = await samlSignIn(t, idp, 'shib', stranger);
    expect((await me(sessionCookie(made.res)!)).json().email).toBe(stranger.email);
    expect(await countRows(t, 'users')).toBe(before + 1);
  });
});

describe('refused with a message code and no session', () => {
  const expectRefusedWhen = async (code: string, change: AssertionChange | null, account = person()) => {
    await createUser(t, { email: account.email!.toLowerCase() });
    const before = await sessions();
    idp.alter(change);
    try {
      expectRefused((await samlSignIn(t, idp, 'district', account)).res, code);
    } finally {
      idp.alter(null);
    }
    expect(await sessions()).toBe(before);
  };

  it('an unsigned assertion', () => expectRefusedWhen('failed', { unsigned: true }));
  it('a tampered signature', () => expectRefusedWhen('failed', { tamper: true }));
  it('an assertion for another audience', () =>
    expectRefusedWhen('failed', { audience: 'https://elsewhere.example/sp' }));
  it('an assertion for another recipient', () =>
    expectRefusedWhen('failed', { recipient: 'https://elsewhere.example/acs' }));
  it('a response for another destination', () =>
    expectRefusedWhen('failed', { destination: 'https://elsewhere.example/acs' }));
  it('an assertion past its NotOnOrAfter by more than the clock skew', () =>
    expectRefusedWhen('expired', { expiredSecondsAgo: 90 }));
  it('an answer to a request this server did not make (InResponseTo)', () =>
    expectRefusedWhen('expired', { inResponseTo: '_not-a-request-of-ours' }));
  it('an e-mail domain that is not allowed', () =>
    expectRefusedWhen('wrong_domain', null, person({ email: `saml${n}@elsewhere.example` })));
  it('no e-mail address released', async () => {
    const before = await sessions();
    expectRefused((await samlSignIn(t, idp, 'district', { nameId: `no-mail-${n}` })).res, 'unverified_email');
    expect(await sessions()).toBe(before);
  });
  it('the person cancels at the provider', async () => {
    const before = await sessions();
    expectRefused((await samlSignIn(t, idp, 'district', null)).res, 'cancelled');
    expect(await sessions()).toBe(before);
  });

  it('within the clock skew, a just-expired assertion is still accepted', async () => {
    const account = person();
    await createUser(t, { email: account.email! });
    idp.alter({ expiredSecondsAgo: 20 });
    try {
      expect((await samlSignIn(t, idp, 'district', account)).res.headers.location).toBe('/dashboard');
    } finally {
      idp.alter(null);
    }
  });

  it('a replayed assertion is refused, even if its request were still waiting', async () => {
    const account = person();
    await createUser(t, { email: account.email! });
    const first = await samlSignIn(t, idp, 'district', account);
    expect(first.res.headers.location).toBe('/dashboard');
    const before = await sessions();
    expectRefused(await postToAcs(t, first.posted), 'expired');
    // The request is made to wait again: the assertion's own ID still refuses it.
    const xml = Buffer.from(first.posted.SAMLResponse, 'base64').toString();
    const requestId = /InResponseTo="([^"]+)"/.exec(xml)![1]!;
    await t.db.query(
      `INSERT INTO saml_requests (request_id, provider, expires_at) VALUES ($1, 'district', now() + interval '5 minutes')`,
      [requestId],
    );
    expectRefused(await postToAcs(t, first.posted), 'expired');
    expect(await sessions()).toBe(before);
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM saml_assertions WHERE provider = 'district' AND expires_at > now()`,
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
  });
});
