import { describe, expect, it } from 'vitest';
import { SignInMethodListSchema } from '#schemas/sso';
import { createResearcher, createUser, TEST_PASSWORD } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { freshAddress, oidcFixture, sessionCookie, ssoSignIn } from '../../test/ssoKit.ts';
import { SIGN_IN_METHOD_MESSAGES } from '../services/signInMethodService.ts';

/**
 * An account's sign-in methods (issue 28): researchers see and unlink identities; a teacher who
 * signs in through a provider sets a password for the mobile apps, under the usual policy.
 */

const { idp, providers } = await oidcFixture();
const t = await buildTestApp({ sso: { oidc: providers, saml: [], passwordLogin: true } });
const WEB = { 'x-practicefolio-client': 'web', origin: 'http://portal.test' };
const researcher = await createResearcher(t);
const PHRASE = 'a long and unusual phrase 42';

const setPassword = (token: string, body: Record<string, unknown>) =>
  t.api({ method: 'PUT', url: '/users/me/password', cookies: { jwt: token }, headers: WEB, payload: body });
const appLogin = (identifier: string, password: string) =>
  t.api({ method: 'POST', url: '/auth/local', payload: { identifier, password }, remoteAddress: freshAddress() });

describe('a password for the mobile apps', () => {
  it('a teacher made through single sign-on sets one; the apps sign in with it; the web session goes on', async () => {
    const account = { sub: 'made-1', email: 'made.one@school.example', email_verified: true };
    const token = sessionCookie((await ssoSignIn(t, idp, 'district', account)).res)!;
    expect(await appLogin(account.email, PHRASE)).toHaveStatus(400);
    const res = await setPassword(token, { password: PHRASE, passwordConfirmation: PHRASE });
    expect(res).toHaveStatus(200);
    const renewed = sessionCookie(res)!;
    expect(await t.api({ method: 'GET', url: '/users/me', cookies: { jwt: renewed }, headers: WEB })).toHaveStatus(200);
    expect(await appLogin(account.email, PHRASE)).toHaveStatus(200);
  });

  it('the same policy as any password, and the current one first when there is one', async () => {
    const teacher = await createUser(t, { email: 'has.password@school.example' });
    const token = sessionCookie(
      (await ssoSignIn(t, idp, 'school', { sub: 'hp', email: teacher.user.email, email_verified: true })).res,
    )!;
    expect(await setPassword(token, { password: 'short', passwordConfirmation: 'short' })).toBeApiError(400);
    expect(await setPassword(token, { password: PHRASE, passwordConfirmation: `${PHRASE}!` })).toBeApiError(
      400,
      SIGN_IN_METHOD_MESSAGES.mismatch,
    );
    expect(await setPassword(token, { password: PHRASE, passwordConfirmation: PHRASE })).toBeApiError(
      400,
      SIGN_IN_METHOD_MESSAGES.currentNeeded,
    );
    expect(
      await setPassword(token, { password: PHRASE, passwordConfirmation: PHRASE, currentPassword: 'wrong one' }),
    ).toBeApiError(400, SIGN_IN_METHOD_MESSAGES.currentWrong);
    expect(await appLogin(teacher.user.email, TEST_PASSWORD)).toHaveStatus(200);
    expect(
      await setPassword(token, { password: PHRASE, passwordConfirmation: PHRASE, currentPassword: TEST_PASSWORD }),
    ).toHaveStatus(200);
    expect(await appLogin(teacher.user.email, TEST_PASSWORD)).toHaveStatus(400);
  });
});

describe('researchers see and unlink sign-in methods', () => {
  it('lists the password and each linked identity; unlinking one removes only it', async () => {
    const teacher = await createUser(t, { email: 'two.ways@school.example' });
    const account = { sub: 'tw', email: teacher.user.email, email_verified: true };
    await ssoSignIn(t, idp, 'school', account);
    await ssoSignIn(t, idp, 'entra', { ...account, tid: '11111111-2222-3333-4444-555555555555' });
    const url = `/users/${teacher.user.id}/sign-in-methods`;
    const listed = SignInMethodListSchema.parse((await t.api({ method: 'GET', url, token: researcher.token })).json());
    expect(listed.password).toBe(true);
    expect(listed.identities.map((i) => [i.provider, i.label, i.email])).toEqual([
      ['school', 'School account', 'two.ways@school.example'],
      ['entra', 'Entra account', 'two.ways@school.example'],
    ]);
    const res = await t.api({
      method: 'DELETE',
      url: `/users/${teacher.user.id}/identities/${listed.identities[0]!.id}`,
      token: researcher.token,
    });
    expect(res).toHaveStatus(200);
    expect(SignInMethodListSchema.parse(res.json()).identities.map((i) => i.provider)).toEqual(['entra']);
    // Another account's identity id is not this account's.
    const other = await createUser(t);
    expect(
      await t.api({
        method: 'DELETE',
        url: `/users/${other.user.id}/identities/${listed.identities[1]!.id}`,
        token: researcher.token,
      }),
    ).toBeApiError(404, SIGN_IN_METHOD_MESSAGES.identityNotFound);
  });
});
