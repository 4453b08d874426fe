import type { LightMyRequestResponse } from 'fastify';
import { afterAll, expect } from 'vitest';
import type { SamlProviderConfig } from '../src/config/samlConfig.ts';
import type { TestApp } from './helper.ts';
import { startSamlIdp, throughSamlIdp, type PostedResponse, type SamlPerson, type TestSamlIdp } from './samlIdp.ts';
import { freshAddress, PORTAL } from './ssoKit.ts';

/**
 * A SAML identity provider on loopback and the portal's configuration of it, twice: `district`
 * (links existing accounts only) and `shib` (also makes teacher accounts). Both allow e-mail
 * addresses of `school.example`.
 */
export async function samlFixture(): Promise<{ idp: TestSamlIdp; providers: SamlProviderConfig[] }> {
  const idp = await startSamlIdp();
  afterAll(() => idp.close());
  const providers = ['district', 'shib'].map((id) => ({
    id,
    metadata: idp.metadataUrl,
    label: id === 'district' ? 'District ADFS' : 'Shibboleth',
    allowedDomains: ['school.example'],
    createAccounts: id === 'shib',
  }));
  return { idp, providers };
}

/** What a sign-in through the identity provider came to. */
export interface SamlAttempt {
  res: LightMyRequestResponse;
  /** The form the provider's page posted (to post it again). */
  posted: PostedResponse;
}

/** Posts a provider's form to the portal's assertion consumer, as the browser does. */
export const postToAcs = (t: TestApp, posted: PostedResponse, remoteAddress = freshAddress()) =>
  t.api({
    method: 'POST',
    url: new URL(posted.acs).pathname.replace(/^\/api\/v1/, ''),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
    payload: new URLSearchParams({ SAMLResponse: posted.SAMLResponse, RelayState: posted.RelayState }).toString(),
    remoteAddress,
  });

/** Starts a sign-in at `provider`, lets `person` sign in at the identity provider (`null`: cancels), and posts back. */
export async function samlSignIn(
  t: TestApp,
  idp: TestSamlIdp,
  provider: string,
  person: SamlPerson | null,
): Promise<SamlAttempt> {
  idp.signInAs(person);
  const remoteAddress = freshAddress();
  const start = await t.api({ method: 'GET', url: `/auth/saml/${provider}/start`, remoteAddress });
  expect(start).toHaveStatus(303);
  const posted = await throughSamlIdp(String(start.headers.location));
  expect(posted.acs).toBe(`${PORTAL}/api/v1/auth/saml/${provider}/acs`);
  return { res: await postToAcs(t, posted, remoteAddress), posted };
}
