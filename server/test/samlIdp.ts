import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';

/**
 * A small SAML 2.0 identity provider on a loopback port, for the single sign-on tests. It signs
 * real assertions (RSA-SHA256, exclusive c14n, with `xml-crypto`) with a key made for the tests
 * (`fixtures/saml/`, used nowhere else). It publishes its metadata, answers AuthnRequests on the
 * HTTP-Redirect binding with a Response posted by a form (HTTP-POST binding), and answers
 * LogoutRequests. A test may make it misbehave (`alter`): an unsigned or tampered assertion,
 * another audience, recipient, destination or InResponseTo, or one whose times are past.
 */

const KEY = readFileSync(new URL('fixtures/saml/idp-key.pem', import.meta.url), 'utf8');
const CERT = readFileSync(new URL('fixtures/saml/idp-cert.pem', import.meta.url), 'utf8');
const CERT_BASE64 = CERT.replace(/-----[^-]+-----|\s+/g, '');
const P = 'urn:oasis:names:tc:SAML:2.0:protocol';
const A = 'urn:oasis:names:tc:SAML:2.0:assertion';

/** A person at the identity provider. */
export interface SamlPerson {
  nameId: string;
  /** Released as the `mail` attribute (absent: no address released). */
  email?: string;
  nameIdFormat?: string;
}

/** A misbehaviour of the provider's next responses. */
export interface AssertionChange {
  unsigned?: boolean;
  /** The address changed after signing (the signature no longer matches). */
  tamper?: boolean;
  audience?: string;
  recipient?: string;
  destination?: string;
  inResponseTo?: string;
  /** NotOnOrAfter this many seconds ago (conditions and subject confirmation). */
  expiredSecondsAgo?: number;
}

/** The form the provider's page posts to the portal's assertion consumer. */
export interface PostedResponse {
  acs: string;
  SAMLResponse: string;
  RelayState: string;
}

export interface TestSamlIdp {
  metadataUrl: string;
  entityId: string;
  /** Who signs in at the provider from now on; `null`: the person cancels. */
  signInAs(person: SamlPerson | null): void;
  alter(change: AssertionChange | null): void;
  /** The LogoutRequests received (their NameID and SessionIndex). */
  logouts: { nameId: string; sessionIndex: string | null }[];
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const decodeRedirect = (value: string) => inflateRawSync(Buffer.from(value, 'base64')).toString('utf8');
const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml').documentElement!;

/** Signs the assertion (an enveloped signature after its Issuer). */
function signAssertion(xml: string): string {
  const sig = new SignedXml({
    privateKey: KEY,
    publicCert: CERT,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: "/*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, {
    location: { reference: "/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return sig.getSignedXml();
}

export async function startSamlIdp(): Promise<TestSamlIdp> {
  let person: SamlPerson | null = null;
  let change: AssertionChange | null = null;
  const logouts: TestSamlIdp['logouts'] = [];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${base}/idp`;

  const metadata = () => `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="${P}" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${CERT_BASE64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${base}/slo"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${base}/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

  const response = (request: { id: string; acs: string; audience: string }): string => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const c = change ?? {};
    const inResponseTo = c.inResponseTo ?? request.id;
    const destination = c.destination ?? request.acs;
    const head = `<samlp:Response xmlns:samlp="${P}" xmlns:saml="${A}" ID="_${randomUUID()}" Version="2.0" IssueInstant="${iso(now)}" Destination="${esc(destination)}" InResponseTo="${esc(inResponseTo)}"><saml:Issuer>${entityId}</saml:Issuer>`;
    if (!person)
      return `${head}<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder"><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode><samlp:StatusMessage>The person cancelled</samlp:StatusMessage></samlp:Status></samlp:Response>`;
    const end = c.expiredSecondsAgo !== undefined ? now - c.expiredSecondsAgo * 1000 : now + 5 * 60_000;
    const issued = Math.min(now, end - 60_000);
    const format = person.nameIdFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
    const attribute = (email: string) =>
      `<saml:AttributeStatement><saml:Attribute Name="mail"><saml:AttributeValue>${esc(email)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`;
    let assertion = `<saml:Assertion xmlns:saml="${A}" ID="_${randomUUID()}" Version="2.0" IssueInstant="${iso(issued)}"><saml:Issuer>${entityId}</saml:Issuer><saml:Subject><saml:NameID Format="${format}">${esc(person.nameId)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(end)}" Recipient="${esc(c.recipient ?? request.acs)}" InResponseTo="${esc(inResponseTo)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(issued - 5000)}" NotOnOrAfter="${iso(end)}"><saml:AudienceRestriction><saml:Audience>${esc(c.audience ?? request.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(issued)}" SessionIndex="_session-${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>${person.email ? attribute(person.email) : ''}</saml:Assertion>`;
    if (!c.unsigned) assertion = signAssertion(assertion);
    if (c.tamper && person.email) assertion = assertion.replace(esc(person.email), 'someone.else@school.example');
    return `${head}<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(metadata());
      return;
    }
    const message = url.searchParams.get('SAMLRequest');
    if (url.pathname === '/sso' && message) {
      const request = parse(decodeRedirect(message));
      const posted: PostedResponse = {
        acs: request.getAttribute('AssertionConsumerServiceURL') ?? '',
        SAMLResponse: Buffer.from(
          response({
            id: request.getAttribute('ID') ?? '',
            acs: request.getAttribute('AssertionConsumerServiceURL') ?? '',
            audience: request.getElementsByTagNameNS(A, 'Issuer')[0]?.textContent ?? '',
          }),
        ).toString('base64'),
        RelayState: url.searchParams.get('RelayState') ?? '',
      };
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(postForm(posted));
      return;
    }
    if (url.pathname === '/slo' && message) {
      const request = parse(decodeRedirect(message));
      logouts.push({
        nameId: request.getElementsByTagNameNS(A, 'NameID')[0]?.textContent ?? '',
        sessionIndex: request.getElementsByTagNameNS(P, 'SessionIndex')[0]?.textContent ?? null,
      });
      const issuer = request.getElementsByTagNameNS(A, 'Issuer')[0]?.textContent ?? '';
      // The portal's entity id is its metadata's address; its logout return sits beside it.
      const back = issuer.replace(/\/metadata$/, '/logout');
      const answer = `<samlp:LogoutResponse xmlns:samlp="${P}" xmlns:saml="${A}" ID="_${randomUUID()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${esc(back)}" InResponseTo="${esc(request.getAttribute('ID') ?? '')}"><saml:Issuer>${entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`;
      const target = new URL(back);
      target.searchParams.set('SAMLResponse', deflateRawSync(answer).toString('base64'));
      res.writeHead(303, { location: target.href }).end();
      return;
    }
    res.writeHead(404).end();
  };
  server.on('request', handle);

  return {
    metadataUrl: `${base}/metadata`,
    entityId,
    signInAs(next) {
      person = next;
    },
    alter(next) {
      change = next;
    },
    logouts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The provider's page: a form that posts the response to the portal (at once, where scripts run). */
function postForm(posted: PostedResponse): string {
  return `<!doctype html><html lang="en"><head><title>Test identity provider</title></head><body>
<form method="post" action="${esc(posted.acs)}"><input type="hidden" name="SAMLResponse" value="${posted.SAMLResponse}">
<input type="hidden" name="RelayState" value="${esc(posted.RelayState)}"><button type="submit">Continue to the portal</button></form>
<script>document.forms[0].submit()</script></body></html>`;
}

/** What a browser at the provider's page would post: read from the page. */
export async function throughSamlIdp(startLocation: string): Promise<PostedResponse> {
  const res = await fetch(startLocation);
  const html = await res.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const acs = /action="([^"]*)"/.exec(html)?.[1] ?? '';
  if (!acs) throw new Error(`The identity provider answered ${res.status}: ${html}`);
  return { acs: acs.replace(/&amp;/g, '&'), SAMLResponse: field('SAMLResponse'), RelayState: field('RelayState') };
}
