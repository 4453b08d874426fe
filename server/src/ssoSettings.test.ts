import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAdmin } from './admin.ts';
import { ConfigError, loadConfig } from './config.ts';
import { ssoSettings } from './config/ssoConfig.ts';
import { PASSWORD_LOGIN_OFF } from './routes/authRoutes.ts';
import { judgeClaims } from './services/oidcClaims.ts';
import { createUser } from '../test/factories.ts';
import { buildTestApp } from '../test/helper.ts';
import { samlFixture } from '../test/samlKit.ts';
import { ALLOWED_TENANT, oidcFixture, OTHER_TENANT } from '../test/ssoKit.ts';

/** Single sign-on settings (`OIDC_*`, `SAML_*`, `PASSWORD_LOGIN`), the claims rules, and `npm run admin -- sso check`. */

const provider = (id: string) => ({
  [`OIDC_${id.toUpperCase()}_ISSUER`]: 'https://accounts.google.com',
  [`OIDC_${id.toUpperCase()}_CLIENT_ID`]: 'client',
  [`OIDC_${id.toUpperCase()}_CLIENT_SECRET`]: 'secret',
});

describe('OIDC_* and PASSWORD_LOGIN', () => {
  it('reads each provider of OIDC_PROVIDERS with its defaults', () => {
    const { settings, problems } = ssoSettings({
      OIDC_PROVIDERS: 'google, district',
      ...provider('google'),
      OIDC_GOOGLE_LABEL: 'Google',
      OIDC_GOOGLE_ALLOWED_DOMAINS: 'School.Example, other.example',
      ...provider('district'),
      OIDC_DISTRICT_TENANTS: ALLOWED_TENANT,
    });
    expect(problems).toEqual([]);
    expect(settings.passwordLogin).toBe(true);
    expect(settings.oidc).toEqual([
      {
        id: 'google',
        issuer: 'https://accounts.google.com',
        clientId: 'client',
        clientSecret: 'secret',
        label: 'Google',
        allowedDomains: ['school.example', 'other.example'],
        allowedTenants: [],
        createAccounts: false,
      },
      expect.objectContaining({ id: 'district', label: 'district', allowedTenants: [ALLOWED_TENANT] }),
    ]);
    expect(ssoSettings({ PASSWORD_LOGIN: 'false' }).settings).toEqual({ oidc: [], saml: [], passwordLogin: false });
  });

  it('names every bad variable', () => {
    const { problems } = ssoSettings({
      PASSWORD_LOGIN: 'maybe',
      OIDC_PROVIDERS: 'good,Bad-Id,plain',
      ...provider('good'),
      OIDC_GOOD_ALLOWED_DOMAINS: 'not a domain',
      OIDC_GOOD_TENANTS: 'tenant-1',
      OIDC_GOOD_CREATE_ACCOUNTS: 'perhaps',
      OIDC_PLAIN_ISSUER: 'http://idp.example.org',
      OIDC_PLAIN_CLIENT_ID: 'c',
      OIDC_PLAIN_CREATE_ACCOUNTS: 'true',
    });
    expect(problems).toEqual([
      'PASSWORD_LOGIN: must be true or false',
      'OIDC_GOOD_ALLOWED_DOMAINS: "not a domain" is not an e-mail domain',
      'OIDC_GOOD_TENANTS: "tenant-1" is not a tenant id (a GUID)',
      'OIDC_GOOD_CREATE_ACCOUNTS: must be true or false',
      'OIDC_PROVIDERS: "bad-id" must be a lower-case id (letters and digits, starting with a letter)',
      'OIDC_PLAIN_ISSUER: must be an https URL (plain http only on this machine)',
      'OIDC_PLAIN_CREATE_ACCOUNTS: accounts are made only for the domains of OIDC_PLAIN_ALLOWED_DOMAINS; set it',
      'OIDC_PLAIN_CLIENT_SECRET: must be set for the provider "plain"',
    ]);
    expect(() => loadConfig({ OIDC_PROVIDERS: 'x', DATA_DIR: '/tmp/pf-sso-config-test' })).toThrow(ConfigError);
  });
});

describe('the claims an ID token must carry', () => {
  const entra = {
    id: 'entra',
    issuer: 'https://login.microsoftonline.com/organizations/v2.0',
    clientId: 'c',
    clientSecret: 's',
    label: 'Microsoft',
    allowedDomains: [],
    allowedTenants: [ALLOWED_TENANT],
    createAccounts: false,
  };
  const template = 'https://login.microsoftonline.com/{tenantid}/v2.0';
  const claims = (tid: string, iss = template.replace('{tenantid}', tid)) => ({
    sub: 's',
    email: 'a@school.example',
    xms_edov: true,
    tid,
    iss,
  });

  it('Entra ID multi-tenant: the issuer must be the one of the token’s own allow-listed tenant', () => {
    expect(judgeClaims(claims(ALLOWED_TENANT), entra, template).ok).toBe(true);
    expect(judgeClaims(claims(OTHER_TENANT), entra, template)).toMatchObject({ ok: false, code: 'wrong_tenant' });
    expect(
      judgeClaims(claims(ALLOWED_TENANT, template.replace('{tenantid}', OTHER_TENANT)), entra, template),
    ).toMatchObject({ ok: false, code: 'failed' });
    expect(judgeClaims(claims(ALLOWED_TENANT), { ...entra, allowedTenants: [] }, template)).toMatchObject({
      ok: false,
      code: 'wrong_tenant',
    });
  });

  it('Google: with allowed domains, a token without hd (a personal account) is refused', () => {
    const google = {
      ...entra,
      issuer: 'https://accounts.google.com',
      allowedTenants: [],
      allowedDomains: ['school.example'],
    };
    const base = { sub: 's', email: 'a@school.example', email_verified: true };
    expect(judgeClaims(base, google, google.issuer)).toMatchObject({ ok: false, code: 'wrong_domain' });
    expect(judgeClaims({ ...base, hd: 'school.example' }, google, google.issuer).ok).toBe(true);
    expect(judgeClaims({ ...base, email_verified: 'true' }, google, google.issuer)).toMatchObject({
      code: 'unverified_email',
    });
  });
});

describe('npm run admin -- sso check', async () => {
  const { providers } = await oidcFixture();
  const unreachable = { ...providers[0]!, id: 'gone', issuer: 'http://127.0.0.1:9' };
  const t = await buildTestApp({ sso: { oidc: providers, saml: [], passwordLogin: false } });
  const teacher = await createUser(t);

  it('PASSWORD_LOGIN=false: the portal’s pages cannot sign in with a password; the mobile apps still do', async () => {
    const body = { identifier: teacher.user.email, password: teacher.password };
    const web = await t.api({
      method: 'POST',
      url: '/auth/local',
      headers: { 'x-practicefolio-client': 'web' },
      payload: body,
      remoteAddress: '10.78.0.1',
    });
    expect(web).toBeApiError(400, PASSWORD_LOGIN_OFF, { nested: true });
    const app = await t.api({ method: 'POST', url: '/auth/local', payload: body, remoteAddress: '10.78.0.2' });
    expect(app).toHaveStatus(200);
    expect(app.json().jwt.length).toBeGreaterThan(20);
  });

  it('reads each provider’s discovery document and says what the portal will use', async () => {
    const out = await runAdmin(['sso', 'check'], t.config, t.db);
    expect(out).toContain('Password sign-in on the portal');
    expect(out).toContain('hidden (PASSWORD_LOGIN=false');
    expect(out).toContain('school ("Sign in with School account"): OK');
    expect(out).toContain('redirect URI to register: http://portal.test/api/v1/auth/oidc/school/callback');
    expect(out).toContain('logout offered at');
  });

  it('fails naming a provider whose discovery cannot be read', async () => {
    await expect(
      runAdmin(['sso', 'check'], { ...t.config, sso: { oidc: [unreachable], saml: [], passwordLogin: true } }, t.db),
    ).rejects.toThrow(
      /gone \("Sign in with School account"\): PROBLEM\n {2}- its discovery document at http:\/\/127\.0\.0\.1:9/,
    );
  });
});

describe('SAML settings and npm run admin -- sso check', async () => {
  const { idp, providers } = await samlFixture();
  const t = await buildTestApp({ sso: { oidc: [], saml: providers, passwordLogin: true } });

  it('reads SAML_PROVIDERS and each SAML_<ID>_*, naming every variable that is wrong', () => {
    const ok = ssoSettings({
      SAML_PROVIDERS: 'district',
      SAML_DISTRICT_METADATA: 'https://adfs.district.example/FederationMetadata/2007-06/FederationMetadata.xml',
      SAML_DISTRICT_LABEL: 'District account',
      SAML_DISTRICT_ALLOWED_DOMAINS: 'District.example, staff.district.example',
      SAML_DISTRICT_CREATE_ACCOUNTS: 'true',
    });
    expect(ok.problems).toEqual([]);
    expect(ok.settings.saml).toEqual([
      {
        id: 'district',
        metadata: 'https://adfs.district.example/FederationMetadata/2007-06/FederationMetadata.xml',
        label: 'District account',
        allowedDomains: ['district.example', 'staff.district.example'],
        createAccounts: true,
      },
    ]);
    const bad = ssoSettings({
      OIDC_PROVIDERS: 'school',
      OIDC_SCHOOL_ISSUER: 'https://accounts.example',
      OIDC_SCHOOL_CLIENT_ID: 'c',
      OIDC_SCHOOL_CLIENT_SECRET: 's',
      SAML_PROVIDERS: 'school,9bad,plain',
      SAML_SCHOOL_METADATA: '/etc/idp.xml',
      SAML_SCHOOL_ALLOWED_DOMAINS: 'school.example',
      SAML_PLAIN_METADATA: 'http://idp.example/metadata',
      SAML_PLAIN_CREATE_ACCOUNTS: 'perhaps',
    });
    expect(bad.problems).toEqual([
      'SAML_PROVIDERS: "9bad" must be a lower-case id (letters and digits, starting with a letter)',
      'SAML_PLAIN_METADATA: must be an https URL (plain http only on this machine) or a file',
      'SAML_PLAIN_ALLOWED_DOMAINS: must name the e-mail domains the identity provider speaks for',
      'SAML_PLAIN_CREATE_ACCOUNTS: must be true or false',
      'SAML_PROVIDERS: "school" is an id of OIDC_PROVIDERS too; give each provider its own id',
    ]);
  });

  it('reads each identity provider’s metadata and says what the portal will use and what to register', async () => {
    const out = await runAdmin(['sso', 'check'], t.config, t.db);
    expect(out).toContain('district (SAML, "Sign in with District ADFS"): OK');
    expect(out).toContain(`entity id ${idp.entityId}`);
    expect(out).toContain('logout offered at');
    expect(out).toContain(
      'to register at the provider: entity id and metadata http://portal.test/api/v1/auth/saml/district/metadata, assertion consumer http://portal.test/api/v1/auth/saml/district/acs',
    );
  });

  it('fails naming metadata that cannot be read or describes no identity provider', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'saml-metadata-'));
    const notIdp = join(dir, 'sp.xml');
    await writeFile(notIdp, '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>');
    const saml = [
      { ...providers[0]!, id: 'gone', metadata: 'http://127.0.0.1:9/metadata' },
      { ...providers[0]!, id: 'notidp', metadata: notIdp },
      { ...providers[0]!, id: 'nofile', metadata: join(dir, 'missing.xml') },
    ];
    const run = runAdmin(['sso', 'check'], { ...t.config, sso: { oidc: [], saml, passwordLogin: true } }, t.db);
    await expect(run).rejects.toThrow(
      /gone \(SAML, "Sign in with District ADFS"\): PROBLEM\n {2}- its metadata \(http:\/\/127\.0\.0\.1:9\/metadata\): the metadata URL cannot be reached/,
    );
    await expect(run).rejects.toThrow(/notidp .*PROBLEM\n {2}- its metadata .*describes no identity provider/);
    await expect(run).rejects.toThrow(/nofile .*PROBLEM\n {2}- its metadata .*cannot be read \(ENOENT\)/);
  });
});
