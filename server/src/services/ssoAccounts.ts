import { ROLE_IDS } from '#schemas/user';
import { portfolioRepository } from '../repositories/portfolioRepository.ts';
import type { SsoLogoutSubject } from '../repositories/sessionRepository.ts';
import { ssoRepository } from '../repositories/ssoRepository.ts';
import { userRepository, type UserRecord } from '../repositories/userRepository.ts';
import type { AuthService, SignIn } from './authService.ts';
import { DEMO_EMAILS } from './authService.ts';
import { isUniqueViolation, type ServiceContext } from './context.ts';
import type { VerifiedIdentity } from './oidcClaims.ts';
import { SsoRefusal } from './ssoRefusal.ts';
import { STARTER_PORTFOLIO_NAME } from './userService.ts';

/** What account linking needs of a provider, OpenID Connect or SAML. */
export interface LinkingProvider {
  id: string;
  createAccounts: boolean;
}

/**
 * The accounts single sign-on reaches, whatever the protocol: an identity already linked, else the
 * account of its verified e-mail (linked now), else a new teacher's where the provider makes them;
 * then the same session as a password sign-in.
 */
export function createSsoAccounts(ctx: ServiceContext, auth: AuthService) {
  const { db } = ctx;

  /** A username for a new account from the e-mail's local part, made unique. */
  const freeUsername = async (email: string): Promise<string> => {
    const base = email.slice(0, email.indexOf('@')).slice(0, 90) || 'teacher';
    for (let n = 1; n < 50; n += 1) {
      const name = n === 1 ? base : `${base}-${n}`;
      if (!(await userRepository.findByUsername(db, name))) return name;
    }
    return `${base}-${Date.now().toString(36)}`;
  };

  const accountFor = async (provider: LinkingProvider, identity: VerifiedIdentity): Promise<UserRecord> => {
    const linkedId = await ssoRepository.userOf(db, provider.id, identity.subject);
    if (linkedId !== null) {
      const linked = await userRepository.findById(db, linkedId);
      if (linked) return linked;
    }
    const byEmail = await userRepository.findByEmail(db, identity.email);
    if (byEmail) {
      await ssoRepository.link(db, { userId: byEmail.user.id, provider: provider.id, ...identity });
      return byEmail;
    }
    if (!provider.createAccounts) throw new SsoRefusal('no_account', `no account for ${identity.email}`);
    const username = await freeUsername(identity.email);
    try {
      const user = await db.transaction(async (tx) => {
        const created = await userRepository.create(tx, {
          username,
          email: identity.email,
          roleId: ROLE_IDS.teacher,
          passwordHash: null,
        });
        await portfolioRepository.createFromTemplate(tx, {
          ownerId: created.id,
          name: STARTER_PORTFOLIO_NAME,
          grades: [],
          subject: null,
          topic: null,
        });
        await ssoRepository.link(tx, { userId: created.id, provider: provider.id, ...identity });
        return created;
      });
      ctx.log.info({ userId: user.id, provider: provider.id }, 'account created through single sign-on');
      return (await userRepository.findById(db, user.id))!;
    } catch (error) {
      // The same person's other sign-in made it a moment ago.
      if (isUniqueViolation(error)) {
        const made = await userRepository.findByEmail(db, identity.email);
        if (made) return made;
      }
      throw error;
    }
  };

  return {
    /**
     * Signs in the person a provider vouched for: finds or makes the account, refuses a blocked
     * one (ending whatever session it still had) and the demo accounts where they are closed, and
     * starts a browser-session sign-in remembered as the provider's (`logout`: for its sign-out).
     * @throws SsoRefusal `no_account` or `blocked`.
     */
    async signIn(provider: LinkingProvider, identity: VerifiedIdentity, logout?: SsoLogoutSubject): Promise<SignIn> {
      const record = await accountFor(provider, identity);
      if (!ctx.config.demoSignIn && DEMO_EMAILS.has(record.user.email))
        throw new SsoRefusal('no_account', 'a demo account on a reachable server');
      if (record.user.blocked) {
        await userRepository.endAllSessions(db, record.user.id);
        throw new SsoRefusal('blocked', `account ${record.user.id} is blocked`);
      }
      return auth.newSession(record, { ssoProvider: provider.id, persistent: false, ssoLogout: logout ?? null });
    },
  };
}

export type SsoAccounts = ReturnType<typeof createSsoAccounts>;
