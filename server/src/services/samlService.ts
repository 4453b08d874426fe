import {
  generateServiceProviderMetadata,
  SAML,
  SamlStatusError,
  ValidateInResponseTo,
  type Profile,
} from '@node-saml/node-saml';
import type { SamlProviderConfig } from '../config/samlConfig.ts';
import { samlRepository } from '../repositories/samlRepository.ts';
import type { SsoLogoutSubject } from '../repositories/sessionRepository.ts';
import type { SignIn } from './authService.ts';
import type { ServiceContext } from './context.ts';
import { assertionFacts, checkRecipient, logoutSubject, samlIdentity } from './samlClaims.ts';
import { certificatePem, parseIdpMetadata, readMetadataText, type IdpMetadata } from './samlMetadata.ts';
import type { SsoAccounts } from './ssoAccounts.ts';
import { SsoRefusal } from './ssoRefusal.ts';

/** How far the identity provider's clock and ours may disagree about an assertion's times. */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** How long an AuthnRequest waits for its answer. */
const REQUEST_TTL_SECONDS = 10 * 60;
/** How long metadata that was read is kept before it is read again (a provider's new certificate). */
const METADATA_TTL_MS = 60 * 60 * 1000;

/** Why `@node-saml/node-saml` refused a response, as the login page says it. */
function refusalOf(error: unknown): SsoRefusal {
  if (error instanceof SsoRefusal) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof SamlStatusError)
    return new SsoRefusal(/AuthnFailed|RequestDenied/.test(error.xmlStatus) ? 'cancelled' : 'failed', message);
  // Too old, not yet valid, or no subject confirmation still valid; or not an answer to a request
  // of ours that is still waiting (used already, or never made).
  if (/expired|not yet valid|No valid subject confirmation|InResponseTo/i.test(message))
    return new SsoRefusal('expired', message);
  return new SsoRefusal('failed', message);
}

/**
 * SAML 2.0 sign-in through identity providers configured from their metadata: AuthnRequests on
 * the HTTP-Redirect binding, responses on HTTP-POST at the assertion consumer. Assertions must be
 * signed by a certificate of the metadata, for this portal (audience, recipient, destination), in
 * answer to a request of ours still waiting (InResponseTo), within their times (60 s of skew), and
 * used once.
 */
export function createSamlService(ctx: ServiceContext, accounts: SsoAccounts) {
  const { db, config } = ctx;
  const byId = new Map(config.sso.saml.map((p) => [p.id, p]));
  const read = new Map<string, { at: number; metadata: Promise<IdpMetadata> }>();

  const base = (provider: SamlProviderConfig) => `${config.publicUrl}/api/v1/auth/saml/${provider.id}`;
  /** The portal's addresses at a provider: its entity id (where its metadata is), ACS and logout return. */
  const endpoints = (provider: SamlProviderConfig) => ({
    entityId: `${base(provider)}/metadata`,
    acs: `${base(provider)}/acs`,
    logout: `${base(provider)}/logout`,
  });

  const metadataOf = (provider: SamlProviderConfig): Promise<IdpMetadata> => {
    const kept = read.get(provider.id);
    if (kept && ctx.clock.now() - kept.at < METADATA_TTL_MS) return kept.metadata;
    const metadata = readMetadataText(provider.metadata).then(parseIdpMetadata);
    read.set(provider.id, { at: ctx.clock.now(), metadata });
    // Metadata that could not be read is read again by the next sign-in.
    metadata.catch(() => read.delete(provider.id));
    return metadata;
  };

  const samlOf = async (provider: SamlProviderConfig): Promise<SAML> => {
    let metadata: IdpMetadata;
    try {
      metadata = await metadataOf(provider);
    } catch (error) {
      throw new SsoRefusal('unavailable', `metadata: ${error instanceof Error ? error.message : String(error)}`);
    }
    const own = endpoints(provider);
    return new SAML({
      issuer: own.entityId,
      audience: own.entityId,
      callbackUrl: own.acs,
      logoutCallbackUrl: own.logout,
      entryPoint: metadata.ssoUrl,
      ...(metadata.sloUrl ? { logoutUrl: metadata.sloUrl } : {}),
      idpIssuer: metadata.entityId,
      idpCert: metadata.certificates.map(certificatePem),
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_TTL_SECONDS * 1000,
      cacheProvider: samlRepository.requestStore(db, provider.id, REQUEST_TTL_SECONDS),
      // Whatever NameID the provider gives (ADFS and Shibboleth differ); the address comes from attributes.
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      signatureAlgorithm: 'sha256',
    });
  };

  const providerOf = (id: string): SamlProviderConfig => {
    const provider = byId.get(id);
    if (!provider) throw new SsoRefusal('failed', `no SAML provider ${id}`);
    return provider;
  };

  return {
    providers: config.sso.saml,
    has: (id: string) => byId.has(id),
    endpoints,

    /**
     * Starts a sign-in: an AuthnRequest whose id is kept for the answer's InResponseTo, as the URL
     * of the provider's single sign-on service.
     * @throws SsoRefusal `unavailable` when the metadata cannot be read.
     */
    async start(id: string): Promise<string> {
      const saml = await samlOf(providerOf(id));
      try {
        return await saml.getAuthorizeUrlAsync('', undefined, {});
      } catch (error) {
        throw new SsoRefusal('unavailable', error instanceof Error ? error.message : String(error));
      }
    },

    /**
     * The assertion consumer: checks the response (`samlResponse`, base64) and signs the person in.
     * @throws SsoRefusal with the login page's message code.
     */
    async acs(id: string, samlResponse: string): Promise<SignIn> {
      const provider = providerOf(id);
      const saml = await samlOf(provider);
      let profile: Profile | null;
      try {
        ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
      } catch (error) {
        throw refusalOf(error);
      }
      if (!profile?.getAssertionXml || !profile.getSamlResponseXml)
        throw new SsoRefusal('failed', 'the response holds no assertion');
      const facts = assertionFacts(profile.getAssertionXml(), profile.getSamlResponseXml());
      checkRecipient(facts, endpoints(provider).acs);
      const until = new Date(
        Math.max(facts.notOnOrAfter?.getTime() ?? 0, ctx.clock.now() + REQUEST_TTL_SECONDS * 1000) + SAML_CLOCK_SKEW_MS,
      );
      if (!(await samlRepository.useAssertion(db, provider.id, facts.id, until)))
        throw new SsoRefusal('expired', `assertion ${facts.id} was used before`);
      const identity = samlIdentity(profile, provider);
      return accounts.signIn(provider, identity, logoutSubject(profile));
    },

    /** The provider's single logout for a session signed in through it, when its metadata publishes one. */
    async providerLogout(
      id: string,
      subject: SsoLogoutSubject | null | undefined,
    ): Promise<{ label: string; url: string } | undefined> {
      const provider = byId.get(id);
      if (!provider || !subject) return undefined;
      try {
        if (!(await metadataOf(provider)).sloUrl) return undefined;
        const saml = await samlOf(provider);
        const url = await saml.getLogoutUrlAsync({ issuer: provider.id, ...subject }, '', {});
        return { label: provider.label, url };
      } catch {
        return undefined;
      }
    },

    /** The portal's metadata for this provider (what its administrator registers). */
    spMetadata(id: string): string {
      const own = endpoints(providerOf(id));
      return generateServiceProviderMetadata({
        issuer: own.entityId,
        callbackUrl: own.acs,
        logoutCallbackUrl: own.logout,
        identifierFormat: null,
        wantAssertionsSigned: true,
      });
    },
  };
}

export type SamlService = ReturnType<typeof createSamlService>;
