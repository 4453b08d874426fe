import { describe, expect, it } from 'vitest';
import { MetadataProblem, parseIdpMetadata } from './samlMetadata.ts';

/** An identity provider's metadata as ADFS and Shibboleth publish it (the parts the portal reads). */

const idp = (entityId: string, inner: string) =>
  `<md:EntityDescriptor entityID="${entityId}"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${inner}</md:IDPSSODescriptor></md:EntityDescriptor>`;
const key = (use: string | null, cert: string) =>
  `<md:KeyDescriptor${use ? ` use="${use}"` : ''}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>
    ${cert}
  </ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
const service = (name: string, binding: string, location: string) =>
  `<md:${name} Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${location}"/>`;
const NS = 'xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"';
const doc = (body: string) => body.replace('<md:EntityDescriptor ', `<md:EntityDescriptor ${NS} `);

const FULL = idp(
  'http://adfs.district.example/adfs/services/trust',
  key('encryption', 'RU5DUllQVElPTg==') +
    key('signing', 'U0lHTklORw==') +
    key(null, 'QU5ZVVNF') +
    service('SingleLogoutService', 'HTTP-POST', 'https://adfs.district.example/adfs/ls/post') +
    service('SingleLogoutService', 'HTTP-Redirect', 'https://adfs.district.example/adfs/ls/') +
    service('SingleSignOnService', 'HTTP-POST', 'https://adfs.district.example/adfs/ls/post') +
    service('SingleSignOnService', 'HTTP-Redirect', 'https://adfs.district.example/adfs/ls/'),
);

describe('parseIdpMetadata', () => {
  it('reads the entity id, the HTTP-Redirect services and the signing certificates (not the encryption one)', () => {
    expect(parseIdpMetadata(doc(FULL))).toEqual({
      entityId: 'http://adfs.district.example/adfs/services/trust',
      ssoUrl: 'https://adfs.district.example/adfs/ls/',
      sloUrl: 'https://adfs.district.example/adfs/ls/',
      certificates: ['U0lHTklORw==', 'QU5ZVVNF'],
    });
  });

  it('takes the one identity provider of an EntitiesDescriptor, and refuses several', () => {
    const one = `<md:EntitiesDescriptor ${NS}>${FULL}<md:EntityDescriptor entityID="sp"><md:SPSSODescriptor/></md:EntityDescriptor></md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(one).entityId).toBe('http://adfs.district.example/adfs/services/trust');
    const two = `<md:EntitiesDescriptor ${NS}>${FULL}${FULL.replace('adfs/services/trust', 'other')}</md:EntitiesDescriptor>`;
    expect(() => parseIdpMetadata(two)).toThrow('several identity providers');
  });

  it('says what is missing', () => {
    const without = (inner: string) => () => parseIdpMetadata(doc(idp('x', inner)));
    const sso = service('SingleSignOnService', 'HTTP-Redirect', 'https://idp.example/sso');
    expect(without(key('signing', 'QQ==') + service('SingleSignOnService', 'HTTP-POST', 'https://i/p'))).toThrow(
      'no SingleSignOnService with the HTTP-Redirect binding',
    );
    expect(without(key('encryption', 'QQ==') + sso)).toThrow('no signing certificate');
    expect(() => parseIdpMetadata('<not xml')).toThrow(MetadataProblem);
    expect(() => parseIdpMetadata(doc(FULL.replace('SAML:2.0:protocol', 'SAML:1.1:protocol')))).toThrow(
      'does not announce SAML 2.0',
    );
  });
});
