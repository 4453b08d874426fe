import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DOMParser } from '@xmldom/xmldom';
import { isLoopbackUrl } from '../config/ssoConfig.ts';

/** What the portal uses of a SAML identity provider's metadata. */
export interface IdpMetadata {
  entityId: string;
  /** Where AuthnRequests go (HTTP-Redirect binding). */
  ssoUrl: string;
  /** Where LogoutRequests go (HTTP-Redirect binding), when the provider publishes one. */
  sloUrl: string | null;
  /** The provider's signing certificates (base64 DER, as in the metadata). */
  certificates: string[];
}

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
/** Metadata larger than this is refused (a federation's aggregate is not one provider's metadata). */
const MAX_METADATA_BYTES = 1024 * 1024;
const TIMEOUT_MS = 10_000;

/** Metadata that cannot be used, with what is wrong in words for the operator. */
export class MetadataProblem extends Error {
  override name = 'MetadataProblem';
}

const children = (parent: Element, ns: string, name: string): Element[] =>
  Array.from(parent.getElementsByTagNameNS(ns, name));

/** The metadata's text: fetched from its URL (https, or http on this machine) or read from its file. */
export async function readMetadataText(source: string): Promise<string> {
  if (!/^[a-z]+:\/\//i.test(source)) {
    const text = await readFile(source, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new MetadataProblem(`the metadata file ${source} cannot be read (${error.code ?? error.message})`);
    });
    if (text.length > MAX_METADATA_BYTES) throw new MetadataProblem('the metadata file is larger than 1 MB');
    return text;
  }
  if (!source.startsWith('https:') && !isLoopbackUrl(source))
    throw new MetadataProblem('the metadata URL must be https (plain http only on this machine)');
  let res: Response;
  try {
    res = await fetch(source, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
  } catch (error) {
    throw new MetadataProblem(`the metadata URL cannot be reached (${error instanceof Error ? error.message : error})`);
  }
  if (!res.ok) throw new MetadataProblem(`the metadata URL answered HTTP ${res.status}`);
  const text = await res.text();
  if (text.length > MAX_METADATA_BYTES) throw new MetadataProblem('the metadata is larger than 1 MB');
  return text;
}

/**
 * Reads an identity provider's metadata: its entity id, its single sign-on (and logout) service
 * on the HTTP-Redirect binding, and its signing certificates. An aggregate with several entities
 * is refused (name the district's own metadata).
 * @throws MetadataProblem saying what is missing.
 */
export function parseIdpMetadata(xml: string): IdpMetadata {
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: {
      warning: () => undefined,
      error: (message: string) => errors.push(message),
      fatalError: (message: string) => errors.push(message),
    },
  }).parseFromString(xml, 'text/xml');
  if (errors.length > 0 || !doc.documentElement) throw new MetadataProblem('the metadata is not well-formed XML');
  const entities = children(doc.documentElement, MD, 'EntityDescriptor').concat(
    doc.documentElement.localName === 'EntityDescriptor' && doc.documentElement.namespaceURI === MD
      ? [doc.documentElement]
      : [],
  );
  const idps = entities.filter((e) => children(e, MD, 'IDPSSODescriptor').length > 0);
  if (idps.length === 0) throw new MetadataProblem('the metadata describes no identity provider (IDPSSODescriptor)');
  if (idps.length > 1)
    throw new MetadataProblem('the metadata describes several identity providers; use the metadata of one');
  const entity = idps[0]!;
  const entityId = entity.getAttribute('entityID') ?? '';
  if (entityId === '') throw new MetadataProblem('the metadata has no entityID');
  const descriptor = children(entity, MD, 'IDPSSODescriptor')[0]!;
  if (!(descriptor.getAttribute('protocolSupportEnumeration') ?? '').split(/\s+/).includes(PROTOCOL))
    throw new MetadataProblem('the identity provider does not announce SAML 2.0');
  const service = (name: string) =>
    children(descriptor, MD, name)
      .find((s) => s.getAttribute('Binding') === REDIRECT)
      ?.getAttribute('Location') ?? null;
  const ssoUrl = service('SingleSignOnService');
  if (!ssoUrl) throw new MetadataProblem('the metadata has no SingleSignOnService with the HTTP-Redirect binding');
  const certificates = children(descriptor, MD, 'KeyDescriptor')
    // Without `use`, a key serves both purposes (xmldom answers '' for an absent attribute).
    .filter((k) => (k.getAttribute('use') || 'signing') === 'signing')
    .flatMap((k) => children(k, DS, 'X509Certificate'))
    .map((c) => (c.textContent ?? '').replace(/\s+/g, ''))
    .filter((c) => c !== '');
  if (certificates.length === 0) throw new MetadataProblem('the metadata has no signing certificate');
  return { entityId, ssoUrl, sloUrl: service('SingleLogoutService'), certificates };
}

/** The PEM of a certificate from the metadata (as `@node-saml/node-saml` takes it). */
export const certificatePem = (base64: string) =>
  `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;

/** When each certificate stops being valid (`null`: it cannot be read). */
export function certificateEnds(certificates: string[]): (Date | null)[] {
  return certificates.map((c) => {
    try {
      return new Date(new X509Certificate(certificatePem(c)).validTo);
    } catch {
      return null;
    }
  });
}
