import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { authRoutes } from '../routes/authRoutes.ts';
import { userRoutes } from '../routes/userRoutes.ts';
import { createAuthService } from '../services/authService.ts';
import { createBundleService } from '../services/bundleService.ts';
import { createSsoService } from '../services/ssoService.ts';
import { samlRoutes } from '../routes/samlRoutes.ts';
import { ssoRoutes } from '../routes/ssoRoutes.ts';
import { signInMethodRoutes } from '../routes/signInMethodRoutes.ts';
import { createSignInMethodService } from '../services/signInMethodService.ts';
import { createUserService } from '../services/userService.ts';

/** Signing in and out (a password or single sign-on), password resets, sessions, and the signed-in user's account. */
export async function accountsFeature(app: FastifyInstance): Promise<void> {
  const ctx = app.serviceContext;
  app.services.auth = createAuthService(ctx);
  app.services.users = createUserService(ctx);
  app.services.sso = createSsoService(ctx, app.services.auth);
  app.services.signInMethods = createSignInMethodService(ctx, app.services.auth);
  // The user of a sign-in answer comes with what the mobile apps cache.
  app.services.bundle = createBundleService(ctx);
  await app.register(authRoutes);
  await app.register(ssoRoutes);
  await app.register(samlRoutes);
  await app.register(authenticated(userRoutes));
  await app.register(authenticated(signInMethodRoutes));
}
