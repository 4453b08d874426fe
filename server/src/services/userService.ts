import { ROLE_IDS, type Me, type RoleId, type User } from '#schemas/user';
import type { Queryable } from '../db/client.ts';
import { badGateway, badRequest, forbidden, notFound } from '../errors.ts';
import { welcomeMessage } from '../mail/messages.ts';
import { abilitiesFor } from '../policies/abilities.ts';
import { canManageUsers, canSetBlocked } from '../policies/userPolicy.ts';
import { passwordCodeRepository } from '../repositories/passwordCodeRepository.ts';
import { portfolioRepository } from '../repositories/portfolioRepository.ts';
import { userRepository } from '../repositories/userRepository.ts';
import { newOneTimeCode } from '../security/tokens.ts';
import { isUniqueViolation, type ServiceContext } from './context.ts';

/** A set-password link for a new account works for this many days. */
export const WELCOME_CODE_TTL_DAYS = 7;
/** The portfolio every new teacher or PLC lead starts with. */
export const STARTER_PORTFOLIO_NAME = 'My Portfolio 1';

export const USER_MESSAGES = {
  onlyResearchers: 'Only researchers can manage users.',
  notSelf: 'You cannot block or unblock your own account.',
  notFound: 'User not found.',
  exists: 'User already exists.',
  usernameTaken: 'This user name is already taken.',
  mailFailed: 'The welcome e-mail could not be sent, so the account was not created. Please try again.',
} as const;

/**
 * Creates an account without a usable password, its starter portfolio (not for researchers)
 * and a set-password code, inside the caller's transaction; returns the user and the link.
 * @throws 400 when the e-mail address or username is taken.
 */
export async function createAccount(
  ctx: ServiceContext,
  tx: Queryable,
  input: { email: string; username: string; roleId: RoleId },
): Promise<{ user: User; link: string }> {
  if (await userRepository.findByEmail(tx, input.email)) throw badRequest(USER_MESSAGES.exists, 'user_exists');
  if (await userRepository.findByUsername(tx, input.username))
    throw badRequest(USER_MESSAGES.usernameTaken, 'username_taken');
  let user: User;
  try {
    user = await userRepository.create(tx, { ...input, passwordHash: null });
  } catch (error) {
    // Another request created the same account between the checks above and this insert.
    if (isUniqueViolation(error, 'users_username_key')) throw badRequest(USER_MESSAGES.usernameTaken, 'username_taken');
    if (isUniqueViolation(error)) throw badRequest(USER_MESSAGES.exists, 'user_exists');
    throw error;
  }
  if (input.roleId !== ROLE_IDS.researcher) {
    await portfolioRepository.createFromTemplate(tx, {
      ownerId: user.id,
      name: STARTER_PORTFOLIO_NAME,
      grades: [],
      subject: null,
      topic: null,
    });
  }
  const { code, hash } = newOneTimeCode();
  await passwordCodeRepository.create(tx, {
    userId: user.id,
    hash,
    purpose: 'welcome',
    ttlSeconds: WELCOME_CODE_TTL_DAYS * 24 * 60 * 60,
  });
  // The page names itself "Set your password" for people who never had one.
  return { user, link: `${ctx.config.publicUrl}/reset-password/${code}?welcome=1` };
}

/** Account management for researchers. */
export function createUserService(ctx: ServiceContext) {
  const { db } = ctx;
  return {
    /** The signed-in user with what the account may do. */
    me(actor: User): Me {
      return { ...actor, abilities: abilitiesFor.user(actor) };
    },

    /**
     * Every account, optionally filtered by role.
     * @throws 403 for anyone but a researcher.
     */
    async list(actor: User, filter: { role?: number; roleNot?: number }): Promise<User[]> {
      if (!canManageUsers(actor)) throw forbidden(USER_MESSAGES.onlyResearchers);
      return userRepository.list(db, filter);
    },

    /**
     * Blocks or unblocks an account other than the caller's own.
     * @throws 403 for non-researchers and for the own account; 404 for an unknown id.
     */
    async setBlocked(actor: User, id: number, blocked: boolean): Promise<User> {
      if (!canManageUsers(actor)) throw forbidden(USER_MESSAGES.onlyResearchers);
      if (!canSetBlocked(actor, id)) throw forbidden(USER_MESSAGES.notSelf);
      const updated = await userRepository.setBlocked(db, id, blocked);
      if (!updated) throw notFound(USER_MESSAGES.notFound);
      return updated;
    },

    /**
     * A researcher creates an account; the person chooses a password through the e-mailed link.
     * Nothing is kept when the e-mail cannot be sent.
     * @throws 403 for non-researchers; 400 for a taken address or name; 502 when mail fails.
     */
    async create(actor: User, body: { email: string; username: string; roleId: number }): Promise<User> {
      if (!canManageUsers(actor)) throw forbidden(USER_MESSAGES.onlyResearchers);
      const input = { email: body.email.toLowerCase(), username: body.username, roleId: body.roleId as RoleId };
      return db.transaction(async (tx) => {
        const { user, link } = await createAccount(ctx, tx, input);
        try {
          await ctx.mailer.send(welcomeMessage(user, link, WELCOME_CODE_TTL_DAYS));
        } catch (error) {
          ctx.log.error({ err: error }, 'could not send the welcome e-mail');
          throw badGateway(USER_MESSAGES.mailFailed);
        }
        return user;
      });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
