import type { AppPasswordBody, SignInMethodList } from '#schemas/sso';
import type { User } from '#schemas/user';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { canManageUsers } from '../policies/userPolicy.ts';
import type { SessionOrigin } from '../repositories/sessionRepository.ts';
import { ssoRepository } from '../repositories/ssoRepository.ts';
import { userRepository } from '../repositories/userRepository.ts';
import { passwordProblem } from '../security/passwordPolicy.ts';
import { hashPassword, verifyPassword } from '../security/passwords.ts';
import type { AuthService, SignIn } from './authService.ts';
import type { ServiceContext } from './context.ts';
import { USER_MESSAGES } from './userService.ts';

export const SIGN_IN_METHOD_MESSAGES = {
  mismatch: 'The two passwords are not the same.',
  currentWrong: 'Your current password is not right.',
  currentNeeded: 'Give your current password to change it.',
  identityNotFound: 'This sign-in method is not linked to the account.',
} as const;

/** An account's ways to sign in: researchers see and unlink them; a person sets a password for the apps. */
export function createSignInMethodService(ctx: ServiceContext, auth: AuthService) {
  const { db, config } = ctx;
  const labelOf = (provider: string) => config.sso.oidc.find((p) => p.id === provider)?.label ?? provider;

  const listOf = async (userId: number): Promise<SignInMethodList> => {
    const record = await userRepository.findById(db, userId);
    if (!record) throw notFound(USER_MESSAGES.notFound);
    const identities = await ssoRepository.identitiesOf(db, userId);
    return {
      password: record.passwordHash !== null,
      identities: identities.map((i) => ({
        id: i.id,
        provider: i.provider,
        label: labelOf(i.provider),
        email: i.email,
        linked_at: i.linkedAt,
      })),
    };
  };

  return {
    /** The account's password (whether it has one) and linked identities. @throws 403 for non-researchers; 404. */
    async list(actor: User, userId: number): Promise<SignInMethodList> {
      if (!canManageUsers(actor)) throw forbidden(USER_MESSAGES.onlyResearchers);
      return listOf(userId);
    },

    /**
     * Unlinks one identity: its next sign-in links again only by e-mail (or is refused). The
     * account's sessions go on. @throws 403 for non-researchers; 404 when it is not the account's.
     */
    async unlink(actor: User, userId: number, identityId: number): Promise<SignInMethodList> {
      if (!canManageUsers(actor)) throw forbidden(USER_MESSAGES.onlyResearchers);
      if (!(await ssoRepository.unlink(db, userId, identityId)))
        throw notFound(SIGN_IN_METHOD_MESSAGES.identityNotFound);
      return listOf(userId);
    },

    /**
     * Sets the caller's password (for the mobile apps). One who has a password gives it first.
     * Every other session ends; the caller's continues in a new token (returned).
     * @throws 400 when the password breaks the policy or the current one is wrong.
     */
    async setAppPassword(actor: User, body: AppPasswordBody, session: SessionOrigin): Promise<SignIn> {
      const record = await userRepository.findById(db, actor.id);
      if (!record) throw notFound(USER_MESSAGES.notFound);
      if (body.password !== body.passwordConfirmation) throw badRequest(SIGN_IN_METHOD_MESSAGES.mismatch, 'mismatch');
      const problem = passwordProblem(body.password, record.user, config.publicUrl);
      if (problem) throw badRequest(problem, 'weak_password');
      if (record.passwordHash !== null) {
        if (body.currentPassword === undefined)
          throw badRequest(SIGN_IN_METHOD_MESSAGES.currentNeeded, 'current_password_needed');
        if (!(await verifyPassword(body.currentPassword, record.passwordHash)))
          throw badRequest(SIGN_IN_METHOD_MESSAGES.currentWrong, 'current_password_wrong');
      }
      await userRepository.setPassword(db, actor.id, await hashPassword(body.password));
      const updated = (await userRepository.findById(db, actor.id))!;
      return auth.newSession(updated, session);
    },
  };
}

export type SignInMethodService = ReturnType<typeof createSignInMethodService>;
