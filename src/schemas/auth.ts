import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { EMAIL_MAX } from './common.ts';
import { PASSWORD_MAX } from './rules.ts';
import { MeSchema } from './user.ts';

export { PASSWORD_MAX, PASSWORD_MIN } from './rules.ts';

/** `POST /auth/local`. `identifier` is an e-mail address or a username. */
export const LoginBodySchema = lazySchema(() =>
  z.strictObject({
    identifier: z
      .string({ error: (i) => (i.input === undefined ? 'Please provide your username or your e-mail.' : undefined) })
      .trim()
      .min(1, 'Please provide your username or your e-mail.')
      .max(EMAIL_MAX),
    password: z
      .string({ error: (i) => (i.input === undefined ? 'Please provide your password.' : undefined) })
      .min(1, 'Please provide your password.')
      .max(PASSWORD_MAX),
    /**
     * "Keep me signed in" (web app only): `true` keeps the session cookie for 30 days after the
     * browser closes; absent or `false`, the cookie ends with the browser session. The mobile apps
     * never send it (they keep their bearer token themselves) and are unaffected by it.
     */
    remember: z.boolean().optional(),
  }),
);
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** `{ jwt, user }`, the answer of login and reset. */
export const AuthResponseSchema = lazySchema(() =>
  z.object({ jwt: z.string(), user: MeSchema }).meta({ id: 'AuthResponse' }),
);
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

/** `POST /auth/forgot-password`. */
export const ForgotPasswordBodySchema = lazySchema(() =>
  z.strictObject({
    email: z.string().trim().min(1, 'Please provide your e-mail.').max(EMAIL_MAX),
  }),
);
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBodySchema>;

/** `POST /auth/reset-password`. Length rules are checked after the presence rules, with the spec's messages. */
export const ResetPasswordBodySchema = lazySchema(() =>
  z.strictObject({
    code: z.string().max(512),
    password: z.string().max(PASSWORD_MAX, `The password must be at most ${PASSWORD_MAX} characters.`),
    passwordConfirmation: z.string().max(PASSWORD_MAX),
  }),
);
export type ResetPasswordBody = z.infer<typeof ResetPasswordBodySchema>;

/** `POST /token/refresh`. */
export const RefreshResponseSchema = lazySchema(() => z.object({ jwt: z.string() }));
