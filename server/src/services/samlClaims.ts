import type { Profile } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import type { SamlProviderConfig } from '../config/samlConfig.ts';
import type { SsoLogoutSubject } from '../repositories/sessionRepository.ts';
import type { VerifiedIdentity } from './oidcClaims.ts';
import { SsoRefusal } from './ssoRefusal.ts';

const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const TRANSIENT_FORMAT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
/** Where ADFS, Shibboleth (eduPerson `mail`) and others put the e-mail address. */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

const parse = (xml: string) =>
  new DOMParser({ errorHandler: { warning: () => undefined } }).parseFromString(xml, 'text/xml');

/** What the checks below read of the signed assertion (and of the response around it). */
export interface AssertionFacts {
  id: string;
  /** Recipients of its bearer subject confirmations. */
  recipients: string[];
  /** The latest of its NotOnOrAfter times (conditions, subject confirmations); `null`: none. */
  notOnOrAfter: Date | null;
  /** The response's Destination, when it names one. */
  destination: string | null;
}

/** Reads the assertion's ID, recipients and end, and the response's destination. */
export function assertionFacts(assertionXml: string, responseXml: string): AssertionFacts {
  const assertion = parse(assertionXml).documentElement!;
  const times: number[] = [];
  const conditions = assertion.getElementsByTagNameNS(SAML, 'Conditions')[0];
  const recipients: string[] = [];
  for (const confirmation of Array.from(assertion.getElementsByTagNameNS(SAML, 'SubjectConfirmation'))) {
    const data = confirmation.getElementsByTagNameNS(SAML, 'SubjectConfirmationData')[0];
    if (!data) continue;
    if (confirmation.getAttribute('Method') === BEARER && data.getAttribute('Recipient'))
      recipients.push(data.getAttribute('Recipient')!);
    if (data.getAttribute('NotOnOrAfter')) times.push(Date.parse(data.getAttribute('NotOnOrAfter')!));
  }
  if (conditions?.getAttribute('NotOnOrAfter')) times.push(Date.parse(conditions.getAttribute('NotOnOrAfter')!));
  const valid = times.filter((t) => Number.isFinite(t));
  const response = parse(responseXml).documentElement;
  return {
    id: assertion.getAttribute('ID') ?? '',
    recipients,
    notOnOrAfter: valid.length > 0 ? new Date(Math.max(...valid)) : null,
    destination: response?.getAttribute('Destination') || null,
  };
}

/**
 * The response was meant for this portal's assertion consumer: a bearer confirmation names it as
 * Recipient, and the response's Destination (when given) is it too.
 * @throws SsoRefusal `failed` otherwise.
 */
export function checkRecipient(facts: AssertionFacts, acsUrl: string): void {
  if (!facts.recipients.includes(acsUrl))
    throw new SsoRefusal('failed', `recipient ${facts.recipients.join(', ') || '(none)'} is not ${acsUrl}`);
  if (facts.destination !== null && facts.destination !== acsUrl)
    throw new SsoRefusal('failed', `destination ${facts.destination} is not ${acsUrl}`);
  if (facts.id === '') throw new SsoRefusal('failed', 'the assertion has no ID');
}

const firstText = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) ? firstText(value[0]) : undefined;

/**
 * The person the assertion names: an e-mail address from its attributes (or an e-mail NameID) in
 * an allowed domain. The subject is the NameID, unless it is transient (a new one at each
 * sign-in), when the address names the person.
 * @throws SsoRefusal `unverified_email` (no address) or `wrong_domain`.
 */
export function samlIdentity(profile: Profile, provider: SamlProviderConfig): VerifiedIdentity {
  const fromAttributes = EMAIL_ATTRIBUTES.map((name) => firstText(profile[name])).find((v) => v !== undefined);
  const email = (fromAttributes ?? (profile.nameIDFormat === EMAIL_FORMAT ? profile.nameID : undefined))
    ?.trim()
    .toLowerCase();
  if (!email || !EMAIL.test(email)) throw new SsoRefusal('unverified_email', 'the assertion names no e-mail address');
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (!provider.allowedDomains.includes(domain)) throw new SsoRefusal('wrong_domain', `domain ${domain} not allowed`);
  const subject = profile.nameIDFormat === TRANSIENT_FORMAT || !profile.nameID ? email : profile.nameID;
  return { subject: subject.slice(0, 255), email, domain };
}

/** What the provider's sign-out will need to name this session. */
export const logoutSubject = (profile: Profile): SsoLogoutSubject => ({
  nameID: profile.nameID,
  nameIDFormat: profile.nameIDFormat,
  ...(profile.nameQualifier ? { nameQualifier: profile.nameQualifier } : {}),
  ...(profile.spNameQualifier ? { spNameQualifier: profile.spNameQualifier } : {}),
  ...(profile.sessionIndex ? { sessionIndex: profile.sessionIndex } : {}),
});
