import { isEmail } from '#schemas/common';
import type { AuthResponse, LoginBody } from '#schemas/auth';
import type { User } from '#schemas/user';
import { authError, tooManyRequests, unauthorized } from '../errors.ts';
import { authEventRepository } from '../repositories/authEventRepository.ts';
import { loginAddressRepository } from '../repositories/loginAddressRepository.ts';
import { userRepository, type UserRecord } from '../repositories/userRepository.ts';
import { randomUUID } from 'node:crypto';
import { DEMO_ACCOUNTS } from '../db/demo.ts';
import { sessionRepository, type SessionOrigin, type SsoLogoutSubject } from '../repositories/sessionRepository.ts';
import { hashPassword, needsRehash, verifyPassword } from '../security/passwords.ts';
import { generationAccepted, SESSION_ABSOLUTE_SECONDS, SESSION_TTL_SECONDS } from '../security/tokens.ts';
import { AUTH_MESSAGES } from './authMessages.ts';
import type { ServiceContext } from './context.ts';
import type { Queryable } from '../db/client.ts';
import { LOGIN_ADDRESS_FAILURES, LOGIN_FAILURE_WINDOW_SECONDS, loginWaitSeconds } from './loginThrottle.ts';
import { createPasswordReset } from './passwordReset.ts';

/** Who a request comes from: the account, its session (absent for tokens from before sessions were kept) and the token's generation. */
export interface Principal {
  user: User;
  sessionId: string | undefined;
  generation: number;
}

/** The demo accounts' e-mails: on a server other machines can reach, these accounts neither sign in nor keep sessions or media links. */
export const DEMO_EMAILS: ReadonlySet<string> = new Set(DEMO_ACCOUNTS.map((a) => a.email));

/**
 * Who signs in: the web app (its session lives in a cookie) or a mobile app (it keeps its bearer
 * token itself). A web session persists across browser restarts only when the person ticked
 * "keep me signed in" (`remember`); a sign-in without that choice (a password reset, signing in
 * again over a page) lives for the browser session, the safe default on a shared computer. The
 * mobile apps' sessions always persist, as before.
 */
export type SignInClient = 'web' | 'app';
const persists = (client: SignInClient, remember: boolean | undefined): boolean =>
  client === 'app' || remember === true;

/** A new session's token, and whether the session is kept across browser restarts. */
export type SignIn = { jwt: AuthResponse['jwt']; user: User; persistent: boolean };

/** Log-in, session tokens and password resets (`passwordReset`). */
export function createAuthService(ctx: ServiceContext) {
  const { db, tokens, principals } = ctx;

  /** A new server-side session of the user, kept across browser restarts or not. */
  const startSession = async (
    userId: number,
    persistent: boolean,
    q: Queryable,
    ssoProvider?: string,
    ssoLogout?: SsoLogoutSubject | null,
  ) => {
    const sid = randomUUID();
    return {
      sid,
      until: await sessionRepository.start(q, {
        id: sid,
        userId,
        absoluteSeconds: SESSION_ABSOLUTE_SECONDS,
        persistent,
        ...(ssoProvider ? { ssoProvider, ssoLogout: ssoLogout ?? null } : {}),
      }),
      gen: 0,
    };
  };

  /** A token of the session `sid` at generation `gen` (or of a new session, persistent or not), never living past the session's end. */
  const issue = async (
    user: User,
    epoch: number,
    session:
      | { sid: string; until: Date; gen: number }
      | { persistent: boolean; ssoProvider?: string; ssoLogout?: SsoLogoutSubject | null },
    q: Queryable = db,
  ) => {
    const open =
      'sid' in session
        ? session
        : await startSession(user.id, session.persistent, q, session.ssoProvider, session.ssoLogout);
    const ttl = Math.max(1, Math.min(SESSION_TTL_SECONDS, Math.floor((open.until.getTime() - ctx.clock.now()) / 1000)));
    return tokens.sign({ id: user.id, epoch, sid: open.sid, gen: open.gen }, ttl);
  };

  const reset = createPasswordReset(ctx, { issue, persists });

  return {
    /**
     * Logs in with an e-mail address (any case) or a username.
     * @throws 429 after too many failures for the identifier; 400 (nested) when refused.
     */
    async login(body: LoginBody, clientAddress = 'unknown', client: SignInClient = 'app'): Promise<SignIn> {
      const identifier = body.identifier.trim();
      const record = isEmail(identifier)
        ? await userRepository.findByEmail(db, identifier)
        : await userRepository.findByUsername(db, identifier);
      // One counter per account, whichever identifier names it (an unknown one counts as itself).
      const account = record ? `user:${record.user.id}` : `name:${identifier.normalize('NFKC').toLowerCase()}`;
      const subject = `${account}|${clientAddress}`;
      // Every attempt counts as a failure until the password proves right, so that concurrent
      // guesses cannot all pass the wait; attempts on one account take turns.
      const known = record ? await loginAddressRepository.known(db, record.user.id, clientAddress) : false;
      const attempt = await db.transaction(async (tx) => {
        await authEventRepository.lockSubject(tx, 'login_failure', account);
        const wait = loginWaitSeconds(
          await authEventRepository.loginFailures(tx, account, clientAddress, LOGIN_FAILURE_WINDOW_SECONDS),
          known,
          ctx.clock.now(),
        );
        if (wait > 0) return { allowed: false as const, wait };
        // The address's budget across accounts (one password tried on many accounts).
        const budget = known
          ? { allowed: true as const, id: await authEventRepository.record(tx, 'login_address_failure', clientAddress) }
          : await authEventRepository.attempt(
              tx,
              'login_address_failure',
              clientAddress,
              LOGIN_ADDRESS_FAILURES,
              LOGIN_FAILURE_WINDOW_SECONDS,
            );
        if (!budget.allowed) return { allowed: false as const, wait: 0 };
        return {
          allowed: true as const,
          ids: [await authEventRepository.record(tx, 'login_failure', subject), budget.id],
        };
      });
      if (!attempt.allowed)
        throw tooManyRequests(
          attempt.wait > 0 ? AUTH_MESSAGES.tooManyLogins(attempt.wait) : AUTH_MESSAGES.tooManyFromAddress,
          true,
        );
      const valid = await verifyPassword(body.password, record?.passwordHash ?? null);
      if (!record || !valid) throw authError(AUTH_MESSAGES.invalidLogin, 'invalid_credentials');
      // The demo accounts' password is published: on a server other machines can reach, they
      // cannot sign in (unless DEMO_DATA=true was chosen on purpose), as if they did not exist.
      if (!ctx.config.demoSignIn && DEMO_EMAILS.has(record.user.email))
        throw authError(AUTH_MESSAGES.invalidLogin, 'invalid_credentials');
      // Only someone who knows the password learns that the account is blocked.
      if (record.user.blocked) {
        for (const id of attempt.ids) await authEventRepository.remove(db, id);
        throw authError(AUTH_MESSAGES.blocked, 'blocked');
      }
      // A hash of an earlier scheme or weaker parameters is replaced now that the password is known.
      if (record.passwordHash && needsRehash(record.passwordHash)) {
        await userRepository.upgradePasswordHash(
          db,
          record.user.id,
          record.passwordHash,
          await hashPassword(body.password),
        );
      }
      const persistent = persists(client, body.remember);
      // What a sign-in writes (its failures cleared, the address known, the new session) is one commit.
      const jwt = await db.transaction(async (tx) => {
        await authEventRepository.clear(tx, 'login_failure', subject);
        await authEventRepository.remove(tx, attempt.ids[1]!);
        await loginAddressRepository.remember(tx, record.user.id, clientAddress);
        return issue(record.user, record.sessionEpoch, { persistent }, tx);
      });
      return { jwt, user: record.user, persistent };
    },

    /**
     * The user a session token belongs to.
     * @throws 401 for a token that is invalid, expired, from an ended session, or of a blocked account.
     */
    async authenticate(token: string): Promise<Principal> {
      const claims = await tokens.verify(token);
      if (!claims) throw unauthorized('Invalid token.');
      const sid = claims.sid;
      const gen = claims.gen ?? 0;
      const loadUser = () => userRepository.findById(db, claims.id);
      const loadSession = (id: string) => () => sessionRepository.findOpen(db, id, claims.id);
      const [record, session] = await Promise.all([
        principals ? principals.user(claims.id, loadUser) : loadUser(),
        sid
          ? principals
            ? principals.session(sid, claims.id, loadSession(sid))
            : loadSession(sid)()
          : Promise.resolve(null),
      ]);
      if (!record) throw unauthorized('Invalid token.');
      if (record.user.blocked) throw unauthorized(AUTH_MESSAGES.blockedSession);
      // Sessions of the demo accounts from before a restart on a reachable address are over.
      if (!ctx.config.demoSignIn && DEMO_EMAILS.has(record.user.email)) throw unauthorized(AUTH_MESSAGES.sessionEnded);
      if (record.sessionEpoch !== claims.epoch) throw unauthorized(AUTH_MESSAGES.sessionEnded);
      // A signed-out (or expired) session ends every token of it at once; a refresh ends the older ones.
      if (sid && (!session || !generationAccepted(gen, session))) {
        // A replaced token after its grace minute: two holders refresh one session (a stolen
        // token). Neither can tell who is the thief, so the whole session ends for both.
        if (session && gen < session.generation) await sessionRepository.end(db, sid);
        throw unauthorized(AUTH_MESSAGES.sessionEnded);
      }
      return { user: record.user, sessionId: sid, generation: gen };
    },

    /**
     * A fresh token of the caller's session, which replaces the presented one: the session moves
     * to its next generation and older tokens stop working (the replaced one after a grace
     * minute). A second refresh with the just-replaced token, within that minute (two requests
     * under way at once), gets a token of the current generation. Never lives past the session's
     * absolute end. The session keeps its persistence (a browser-session cookie stays one).
     */
    async refresh(principal: Principal): Promise<{ jwt: string; persistent: boolean }> {
      const { user, sessionId } = principal;
      const record = await userRepository.findById(db, user.id);
      if (!record) throw unauthorized('Invalid token.');
      // A token from before sessions were kept: its cookie always lived 30 days.
      if (!sessionId)
        return { jwt: await issue(record.user, record.sessionEpoch, { persistent: true }), persistent: true };
      const session = await sessionRepository.findOpen(db, sessionId, user.id);
      if (!session || !generationAccepted(principal.generation, session))
        throw unauthorized(AUTH_MESSAGES.sessionEnded);
      const gen =
        principal.generation === session.generation
          ? await sessionRepository.rotate(db, sessionId)
          : session.generation;
      if (gen === null) throw unauthorized(AUTH_MESSAGES.sessionEnded);
      return {
        jwt: await issue(record.user, record.sessionEpoch, { sid: sessionId, until: session.until, gen }),
        persistent: session.persistent,
      };
    },

    /**
     * Signs out: the caller's session ends at once, on every device its token is used. A token
     * from before sessions were kept cannot be told apart from its siblings: all of the user's
     * sessions end then.
     */
    async logout(user: User, sessionId: string | undefined): Promise<Record<string, never>> {
      if (sessionId) await sessionRepository.end(db, sessionId);
      else await userRepository.endAllSessions(db, user.id);
      return {};
    },

    /**
     * A new session of an account whose owner was vouched for otherwise (a single sign-on
     * provider, or a password just set): the same session and token as a password sign-in; a
     * single sign-on session lives for the browser session. The caller has checked that the
     * account may sign in (not blocked).
     */
    async newSession(record: UserRecord, session: SessionOrigin): Promise<SignIn> {
      const jwt = await issue(record.user, record.sessionEpoch, {
        persistent: session.persistent,
        ...(session.ssoProvider ? { ssoProvider: session.ssoProvider, ssoLogout: session.ssoLogout ?? null } : {}),
      });
      return { jwt, user: record.user, persistent: session.persistent };
    },

    /** The provider the session was signed in through (`null`: a password, or no session), and whether it persists. */
    async sessionOrigin(sessionId: string | undefined): Promise<SessionOrigin> {
      return sessionId ? sessionRepository.origin(db, sessionId) : { ssoProvider: null, persistent: true };
    },

    forgotPassword: reset.forgotPassword,
    resetPassword: reset.resetPassword,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
