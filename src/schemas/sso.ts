import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { IdParamSchema, TimestampSchema } from './common.ts';
import { PASSWORD_MAX } from './rules.ts';

/** A provider's id in the sign-in routes (`/auth/oidc/<id>/…`): lower-case letters and digits. */
export const ProviderParamsSchema = lazySchema(() =>
  z.strictObject({
    provider: z.string().regex(/^[a-z][a-z0-9]{0,30}$/, 'must be the id of a sign-in provider'),
  }),
);

/** `GET /auth/oidc/:provider/start`: no query. */
export const SsoStartQuerySchema = lazySchema(() => z.strictObject({}));

/**
 * `GET /auth/oidc/:provider/callback`: what the provider sends back. Providers add fields of their
 * own (Google: `authuser`, `hd`, `prompt`, `scope`), so other fields are let through to the
 * protocol checks, bounded in number and size; the ones read here are named.
 */
export const SsoCallbackQuerySchema = lazySchema(() =>
  z
    .looseObject({
      code: z.string().max(4096).optional(),
      state: z.string().max(512).optional(),
      error: z.string().max(200).optional(),
      error_description: z.string().max(2000).optional(),
      iss: z.string().max(2000).optional(),
    })
    .refine((q) => Object.keys(q).length <= 12, 'The query has too many fields.')
    .refine(
      (q) => Object.values(q).every((v) => typeof v === 'string' && v.length <= 4096),
      'Every field of the query must be one text of at most 4096 characters.',
    ),
);

/** Largest SAML response the assertion consumer reads (base64; a signed assertion is a few kilobytes). */
export const SAML_RESPONSE_MAX = 256 * 1024;

/** `POST /auth/saml/:provider/acs` (HTTP-POST binding, a form the identity provider's page submits). */
export const SamlAcsBodySchema = lazySchema(() =>
  z.strictObject({
    SAMLResponse: z.string().min(1, 'SAMLResponse is required.').max(SAML_RESPONSE_MAX),
    RelayState: z.string().max(80).optional(),
  }),
);

/** `GET /auth/saml/:provider/logout`: the identity provider's answer to a logout (HTTP-Redirect binding). */
export const SamlLogoutQuerySchema = lazySchema(() =>
  z.strictObject({
    SAMLResponse: z.string().max(SAML_RESPONSE_MAX).optional(),
    RelayState: z.string().max(80).optional(),
    SigAlg: z.string().max(200).optional(),
    Signature: z.string().max(2048).optional(),
  }),
);

/** Why a single sign-on ended on the login page (`/login?sso=<code>`). */
export const SSO_ERROR_CODES = [
  'cancelled',
  'wrong_domain',
  'wrong_tenant',
  'unverified_email',
  'expired',
  'no_account',
  'blocked',
  'failed',
  'unavailable',
] as const;
export const SsoErrorCodeSchema = lazySchema(() => z.enum(SSO_ERROR_CODES));
export type SsoErrorCode = z.infer<typeof SsoErrorCodeSchema>;

/** A way to sign in that the login page offers. */
export const SignInProviderSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    /** The button says "Sign in with <label>". */
    label: z.string(),
    /** Where the button leads (a full-page navigation). */
    start: z.string(),
  }),
);
export type SignInProvider = z.infer<typeof SignInProviderSchema>;

/** `GET /auth/methods`: the providers, and whether the e-mail and password form is shown. */
export const SignInMethodsSchema = lazySchema(() =>
  z.object({
    providers: z.array(SignInProviderSchema),
    passwordLogin: z.boolean(),
  }),
);
export type SignInMethods = z.infer<typeof SignInMethodsSchema>;

/** One identity at a provider linked to an account (Manage Users). */
export const LinkedIdentitySchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    provider: z.string(),
    /** The provider's label as configured now (its id when it is no longer configured). */
    label: z.string(),
    email: z.string(),
    linked_at: TimestampSchema,
  }),
);
export type LinkedIdentity = z.infer<typeof LinkedIdentitySchema>;

/** `GET /users/:id/sign-in-methods`: a password (usable or not) and the linked identities. */
export const SignInMethodListSchema = lazySchema(() =>
  z.object({
    password: z.boolean(),
    identities: z.array(LinkedIdentitySchema),
  }),
);
export type SignInMethodList = z.infer<typeof SignInMethodListSchema>;

/** `DELETE /users/:id/identities/:identityId`. */
export const IdentityParamsSchema = lazySchema(() => z.strictObject({ id: IdParamSchema, identityId: IdParamSchema }));

/** `POST /auth/logout` (web): the provider's own sign-out, when the session came from one that publishes it. */
export const LogoutResponseSchema = lazySchema(() =>
  z.object({
    providerLogout: z.object({ label: z.string(), url: z.string() }).optional(),
  }),
);
export type LogoutResponse = z.infer<typeof LogoutResponseSchema>;

/**
 * `PUT /users/me/password`: a password for the mobile apps (which sign in with one only), under
 * the same policy as any password. An account that has a password already proves it first.
 */
export const AppPasswordBodySchema = lazySchema(() =>
  z.strictObject({
    password: z.string().max(PASSWORD_MAX, `The password must be at most ${PASSWORD_MAX} characters.`),
    passwordConfirmation: z.string().max(PASSWORD_MAX),
    currentPassword: z.string().max(PASSWORD_MAX).optional(),
  }),
);
export type AppPasswordBody = z.infer<typeof AppPasswordBodySchema>;

/** The answer of `PUT /users/me/password` (the web app's session continues in a renewed cookie). */
export const AppPasswordResponseSchema = lazySchema(() => z.object({ jwt: z.string() }));
