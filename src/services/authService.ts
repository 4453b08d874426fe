import type { AppPasswordBody, SignInMethods } from '../schemas/sso.ts';
import type { AuthResponse } from '../schemas/auth.ts';
import type { Me } from '../schemas/user.ts';
import { api } from './api.ts';

// The schemas load with the first call, so that the login page itself needs no schema library.
const auth = () => import('../schemas/auth.ts');
const common = () => import('../schemas/common.ts');
const user = () => import('../schemas/user.ts');

/**
 * Logs in with e-mail (or username) and password; `remember` keeps the session across browser
 * restarts (without it, the session cookie ends with the browser session). @throws ApiError on refusal.
 */
export async function login(
  input: { identifier: string; password: string; remember?: boolean },
  signal?: AbortSignal,
): Promise<AuthResponse> {
  return api().request({
    method: 'POST',
    path: '/auth/local',
    body: input,
    // The request goes out while the schemas load (the sign-in page is drawn without them).
    schema: auth().then(({ AuthResponseSchema }) => AuthResponseSchema),
    reauthenticate: false,
    ...(signal ? { signal } : {}),
  });
}

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export async function forgotPassword(email: string, signal?: AbortSignal): Promise<{ ok: true }> {
  const { OkResponseSchema } = await common();
  return api().request({
    method: 'POST',
    path: '/auth/forgot-password',
    body: { email },
    schema: OkResponseSchema,
    ...(signal ? { signal } : {}),
  });
}

/** Sets a new password with the code of a link, and logs in. @throws ApiError with the server's message. */
export async function resetPassword(
  input: { code: string; password: string; passwordConfirmation: string },
  signal?: AbortSignal,
): Promise<AuthResponse> {
  const { AuthResponseSchema } = await auth();
  return api().request({
    method: 'POST',
    path: '/auth/reset-password',
    body: input,
    schema: AuthResponseSchema,
    ...(signal ? { signal } : {}),
  });
}

/** The signed-in user. @throws ApiError 401 when the token is no longer valid. */
export async function fetchMe(signal?: AbortSignal): Promise<Me> {
  // Every signed-in page starts with this call: it goes out while the schema module loads.
  const schema = user().then(({ MeSchema }) => MeSchema);
  return api().request({ method: 'GET', path: '/users/me', schema, ...(signal ? { signal } : {}) });
}

/**
 * The ways to sign in that the login page offers (`GET /auth/methods`), for a page that came
 * without them (`embeddedSignInMethods`).
 */
export async function fetchSignInMethods(signal?: AbortSignal): Promise<SignInMethods> {
  return api().request({
    method: 'GET',
    path: '/auth/methods',
    schema: import('../schemas/sso.ts').then(({ SignInMethodsSchema }) => SignInMethodsSchema),
    reauthenticate: false,
    ...(signal ? { signal } : {}),
  });
}

/** Sets the caller's password for the mobile apps (`PUT /users/me/password`); the session continues in a renewed cookie. */
export async function setAppPassword(body: AppPasswordBody, signal?: AbortSignal): Promise<{ jwt: string }> {
  const { AppPasswordResponseSchema } = await import('../schemas/sso.ts');
  return api().request({
    method: 'PUT',
    path: '/users/me/password',
    body,
    schema: AppPasswordResponseSchema,
    ...(signal ? { signal } : {}),
  });
}
