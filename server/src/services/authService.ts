import { isEmail } from '#schemas/common';
import { PASSWORD_MIN, type AuthResponse, type LoginBody, type ResetPasswordBody } from '#schemas/auth';
import type { User } from '#schemas/user';
import { authError, HttpError, tooManyRequests, unauthorized } from '../errors.ts';
import { resetPasswordMessage } from '../mail/messages.ts';
import { authEventRepository } from '../repositories/authEventRepository.ts';
import { loginAddressRepository } from '../repositories/loginAddressRepository.ts';
import { passwordCodeRepository } from '../repositories/passwordCodeRepository.ts';
import { userRepository } from '../repositories/userRepository.ts';
import { randomUUID } from 'node:crypto';
import { DEMO_ACCOUNTS } from '../db/demo.ts';
import { sessionRepository } from '../repositories/sessionRepository.ts';
import { passwordProblem } from '../security/passwordPolicy.ts';
import { hashPassword, needsRehash, verifyPassword } from '../security/passwords.ts';
import { generationAccepted, hashCode, newOneTimeCode, SESSION_ABSOLUTE_SECONDS, SESSION_TTL_SECONDS } from '../security/tokens.ts';
import type { ServiceContext } from './context.ts';

/**
 * Login throttling that slows guessing without locking the real user out: per account (e-mail
 * and username count as one) and client address, the first `LOGIN_FREE_FAILURES` failures in the
 * window cost nothing; each further attempt from that address waits twice as long as the last
 * (1 s, 2 s, 4 s … at most 15 minutes) after its last failure. When an account collects
 * `LOGIN_ACCOUNT_FAILURES` failures from anywhere, every address that has never signed in to it
 * waits, after the account's last failure, twice as long with each further failure (1 s, 2 s …
 * at most 15 minutes): guessing no longer grows with the attacker's addresses, while the owner's
 * own addresses (a school, home) are not slowed by it. Each address also has a budget of
 * `LOGIN_ADDRESS_FAILURES` failures across accounts in the window; past it, it may sign in only
 * to accounts it has signed in to before.
 */
export const LOGIN_FREE_FAILURES = 5;
export const LOGIN_MAX_WAIT_SECONDS = 15 * 60;
export const LOGIN_ACCOUNT_FAILURES = 20;
export const LOGIN_ADDRESS_FAILURES = 60;
export const LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;

/** How long an address must still wait before its next login attempt on an account (0: none). */
export function loginWaitSeconds(
  failures: { fromAddress: number; lastFromAddress: Date | null; fromAnywhere: number; lastFromAnywhere: Date | null },
  knownAddress: boolean,
  now = Date.now(),
): number {
  const remaining = (last: Date | null, wait: number) => (last ? Math.max(0, Math.ceil((last.getTime() + wait * 1000 - now) / 1000)) : 0);
  let wait = 0;
  if (failures.fromAddress >= LOGIN_FREE_FAILURES) wait = remaining(failures.lastFromAddress, Math.min(2 ** (failures.fromAddress - LOGIN_FREE_FAILURES), LOGIN_MAX_WAIT_SECONDS));
  if (!knownAddress && failures.fromAnywhere >= LOGIN_ACCOUNT_FAILURES) {
    wait = Math.max(wait, remaining(failures.lastFromAnywhere, Math.min(2 ** (failures.fromAnywhere - LOGIN_ACCOUNT_FAILURES), LOGIN_MAX_WAIT_SECONDS)));
  }
  return wait;
}

const waitWords = (seconds: number): string =>
  seconds < 60 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? '' : 's'}`;
/**
 * Reset requests allowed per e-mail address and requester (client address) within the window;
 * past it, 429. Reset e-mails sent to one account within the window, whoever asked: past
 * `FORGOT_EMAIL_LIMIT`, a request answers 200 without sending, unless it comes from an address
 * that has signed in to the account (its owner's own school or home).
 */
export const FORGOT_LIMIT = 5;
export const FORGOT_EMAIL_LIMIT = 10;
export const FORGOT_WINDOW_SECONDS = 60 * 60;
/** Wrong reset codes allowed per client address within the window. */
export const RESET_FAILURE_LIMIT = 20;
export const RESET_FAILURE_WINDOW_SECONDS = 60 * 60;
/**
 * Refused new passwords with a valid code: after this many with one code, the code is used up;
 * after `RESET_ACCOUNT_FAILURE_LIMIT` with the account's codes within the window, every open code
 * of the account is (the owner asks for a new link).
 */
export const RESET_CODE_FAILURE_LIMIT = 10;
export const RESET_ACCOUNT_FAILURE_LIMIT = 20;
/** A reset link works for one hour. */
export const RESET_CODE_TTL_SECONDS = 60 * 60;

/** Who a request comes from: the account, its session (absent for tokens from before sessions were kept) and the token's generation. */
export interface Principal {
  user: User;
  sessionId: string | undefined;
  generation: number;
}

export const AUTH_MESSAGES = {
  invalidLogin: 'Identifier or password invalid.',
  blocked: 'Your account has been blocked by an administrator',
  blockedSession: 'Your account has been blocked by the administrator.',
  sessionEnded: 'Your session has ended. Please log in again.',
  tooManyLogins: (seconds: number) => `Too many failed login attempts. Please wait ${waitWords(seconds)} and try again.`,
  tooManyFromAddress: 'Too many failed login attempts from your network. Please wait 15 minutes and try again.',
  tooManyForgot: 'Too many reset requests for this address. Please wait an hour and try again.',
  tooManyResets: 'Too many attempts. Please wait an hour and try again.',
  invalidEmail: 'Please provide a valid email address.',
  incorrectParams: 'Incorrect params provided.',
  mismatch: 'Passwords do not match.',
  tooShort: `Your new password must be at least ${PASSWORD_MIN} characters long.`,
  incorrectCode: 'Incorrect code provided.',
} as const;

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
const persists = (client: SignInClient, remember: boolean | undefined): boolean => client === 'app' || remember === true;

/** A new session's token, and whether the session is kept across browser restarts. */
export type SignIn = AuthResponse & { persistent: boolean };

/** Log-in, session tokens and password resets. */
export function createAuthService(ctx: ServiceContext) {
  const { db, tokens, principals } = ctx;

  /** A new server-side session of the user, kept across browser restarts or not. */
  const startSession = async (userId: number, persistent: boolean) => {
    const sid = randomUUID();
    return { sid, until: await sessionRepository.start(db, { id: sid, userId, absoluteSeconds: SESSION_ABSOLUTE_SECONDS, persistent }), gen: 0 };
  };

  /** A token of the session `sid` at generation `gen` (or of a new session, persistent or not), never living past the session's end. */
  const issue = async (user: User, epoch: number, session: { sid: string; until: Date; gen: number } | { persistent: boolean }) => {
    const open = 'sid' in session ? session : await startSession(user.id, session.persistent);
    const ttl = Math.max(1, Math.min(SESSION_TTL_SECONDS, Math.floor((open.until.getTime() - ctx.clock.now()) / 1000)));
    return tokens.sign({ id: user.id, epoch, sid: open.sid, gen: open.gen }, ttl);
  };

  /** Uses up the code and sets the password; `null` when the code is (no longer) usable. */
  const setPasswordWithCode = async (codeHash: string, password: string) => {
    const passwordHash = await hashPassword(password);
    return db.transaction(async (tx) => {
      const userId = await passwordCodeRepository.consume(tx, codeHash);
      if (userId === null) return null;
      const record = await userRepository.findById(tx, userId);
      if (!record) return null;
      if (record.user.blocked) throw authError(AUTH_MESSAGES.blocked, 'blocked');
      // Refused here, inside the transaction, so that the code stays usable for a better password.
      const problem = passwordProblem(password, record.user, ctx.config.publicUrl);
      if (problem) throw authError(problem, 'weak_password');
      const epoch = await userRepository.setPassword(tx, userId, passwordHash);
      await passwordCodeRepository.voidAllFor(tx, userId);
      const updated = await userRepository.findById(tx, userId);
      return { user: updated!.user, epoch };
    });
  };

  /** Counts a refused attempt with a valid code against the code and its account; voids codes past their limits. */
  const countRefusedWithCode = async (codeHash: string, userId: number) => {
    await db.transaction(async (tx) => {
      await authEventRepository.lockSubject(tx, 'reset_account_failure', String(userId));
      await authEventRepository.record(tx, 'reset_code_failure', codeHash);
      await authEventRepository.record(tx, 'reset_account_failure', String(userId));
      if ((await authEventRepository.count(tx, 'reset_code_failure', codeHash, RESET_CODE_TTL_SECONDS)) >= RESET_CODE_FAILURE_LIMIT) {
        await passwordCodeRepository.voidCode(tx, codeHash);
      }
      if ((await authEventRepository.count(tx, 'reset_account_failure', String(userId), RESET_FAILURE_WINDOW_SECONDS)) >= RESET_ACCOUNT_FAILURE_LIMIT) {
        await passwordCodeRepository.voidAllFor(tx, userId);
      }
    });
  };

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
        const wait = loginWaitSeconds(await authEventRepository.loginFailures(tx, account, clientAddress, LOGIN_FAILURE_WINDOW_SECONDS), known, ctx.clock.now());
        if (wait > 0) return { allowed: false as const, wait };
        // The address's budget across accounts (one password tried on many accounts).
        const budget = known
          ? { allowed: true as const, id: await authEventRepository.record(tx, 'login_address_failure', clientAddress) }
          : await authEventRepository.attempt(tx, 'login_address_failure', clientAddress, LOGIN_ADDRESS_FAILURES, LOGIN_FAILURE_WINDOW_SECONDS);
        if (!budget.allowed) return { allowed: false as const, wait: 0 };
        return { allowed: true as const, ids: [await authEventRepository.record(tx, 'login_failure', subject), budget.id] };
      });
      if (!attempt.allowed) throw tooManyRequests(attempt.wait > 0 ? AUTH_MESSAGES.tooManyLogins(attempt.wait) : AUTH_MESSAGES.tooManyFromAddress, true);
      const valid = await verifyPassword(body.password, record?.passwordHash ?? null);
      if (!record || !valid) throw authError(AUTH_MESSAGES.invalidLogin, 'invalid_credentials');
      // The demo accounts' password is published: on a server other machines can reach, they
      // cannot sign in (unless DEMO_DATA=true was chosen on purpose), as if they did not exist.
      if (!ctx.config.demoSignIn && DEMO_EMAILS.has(record.user.email)) throw authError(AUTH_MESSAGES.invalidLogin, 'invalid_credentials');
      // Only someone who knows the password learns that the account is blocked.
      if (record.user.blocked) {
        for (const id of attempt.ids) await authEventRepository.remove(db, id);
        throw authError(AUTH_MESSAGES.blocked, 'blocked');
      }
      await authEventRepository.clear(db, 'login_failure', subject);
      await authEventRepository.remove(db, attempt.ids[1]!);
      await loginAddressRepository.remember(db, record.user.id, clientAddress);
      // A hash of an earlier scheme or weaker parameters is replaced now that the password is known.
      if (record.passwordHash && needsRehash(record.passwordHash)) {
        await userRepository.upgradePasswordHash(db, record.user.id, record.passwordHash, await hashPassword(body.password));
      }
      const persistent = persists(client, body.remember);
      return { jwt: await issue(record.user, record.sessionEpoch, { persistent }), user: record.user, persistent };
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
        sid ? (principals ? principals.session(sid, claims.id, loadSession(sid)) : loadSession(sid)()) : Promise.resolve(null),
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
      if (!sessionId) return { jwt: await issue(record.user, record.sessionEpoch, { persistent: true }), persistent: true };
      const session = await sessionRepository.findOpen(db, sessionId, user.id);
      if (!session || !generationAccepted(principal.generation, session)) throw unauthorized(AUTH_MESSAGES.sessionEnded);
      const gen = principal.generation === session.generation ? await sessionRepository.rotate(db, sessionId) : session.generation;
      if (gen === null) throw unauthorized(AUTH_MESSAGES.sessionEnded);
      return { jwt: await issue(record.user, record.sessionEpoch, { sid: sessionId, until: session.until, gen }), persistent: session.persistent };
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
     * E-mails a reset link when the address belongs to an active account. Answers the same
     * either way, so that nobody learns which addresses have accounts.
     * @throws 400 for a malformed address; 429 when this requester asked for it too often.
     */
    async forgotPassword(emailInput: string, clientAddress = 'unknown'): Promise<{ ok: true }> {
      const email = emailInput.trim().toLowerCase();
      if (!isEmail(email)) throw authError(AUTH_MESSAGES.invalidEmail, 'invalid_email');
      const attempt = await db.transaction((tx) =>
        authEventRepository.attempt(tx, 'forgot_request', `${email}|${clientAddress}`, FORGOT_LIMIT, FORGOT_WINDOW_SECONDS),
      );
      if (!attempt.allowed) throw tooManyRequests(AUTH_MESSAGES.tooManyForgot, true);
      const record = await userRepository.findByEmail(db, email);
      if (!record || record.user.blocked) return { ok: true };
      // Others cannot use up the owner's reset e-mails: past the account's limit, only addresses
      // that have signed in to it get a mail; the rest get the same answer and no mail.
      const known = await loginAddressRepository.known(db, record.user.id, clientAddress);
      const mailed = known
        ? { allowed: true as const, id: await authEventRepository.record(db, 'forgot_email', email) }
        : await db.transaction((tx) => authEventRepository.attempt(tx, 'forgot_email', email, FORGOT_EMAIL_LIMIT, FORGOT_WINDOW_SECONDS));
      if (!mailed.allowed) return { ok: true };
      const { code, hash } = newOneTimeCode();
      // Only the newest link works: earlier codes of the account end now.
      await db.transaction(async (tx) => {
        await passwordCodeRepository.voidAllFor(tx, record.user.id);
        await passwordCodeRepository.create(tx, { userId: record.user.id, hash, purpose: 'reset', ttlSeconds: RESET_CODE_TTL_SECONDS });
      });
      const link = `${ctx.config.publicUrl}/reset-password/${code}`;
      // Not awaited: the answer must not take longer when the address has an account (that would
      // tell who has one), nor differ when sending fails; the operator sees failures in the log.
      ctx.mailer.send(resetPasswordMessage(record.user, link)).catch((error: unknown) => {
        ctx.log.error({ err: error }, 'could not send the reset e-mail');
      });
      return { ok: true };
    },

    /**
     * Sets a new password with a one-time code and logs the user in. Every earlier session ends.
     * @throws 400 (nested) with the spec's messages; 429 after too many wrong codes from one
     * address (a valid code still works from there).
     */
    async resetPassword(body: ResetPasswordBody, clientAddress: string, client: SignInClient = 'app'): Promise<SignIn> {
      if (!body.code || !body.password || !body.passwordConfirmation) throw authError(AUTH_MESSAGES.incorrectParams, 'incorrect_params');
      if (body.password !== body.passwordConfirmation) throw authError(AUTH_MESSAGES.mismatch, 'password_mismatch');
      if (body.password.length < PASSWORD_MIN) throw authError(AUTH_MESSAGES.tooShort, 'password_too_short');
      const codeHash = hashCode(body.code);
      // A valid, unexpired code always works, whatever other people behind the same address
      // (a school's one address) typed before: the per-address limit counts wrong codes only.
      const userId = await passwordCodeRepository.usableFor(db, codeHash);
      if (userId === null) {
        const attempt = await db.transaction((tx) =>
          authEventRepository.attempt(tx, 'reset_failure', clientAddress, RESET_FAILURE_LIMIT, RESET_FAILURE_WINDOW_SECONDS),
        );
        if (!attempt.allowed) throw tooManyRequests(AUTH_MESSAGES.tooManyResets, true);
        throw authError(AUTH_MESSAGES.incorrectCode, 'incorrect_code');
      }
      let outcome: { user: User; epoch: number } | null;
      try {
        outcome = await setPasswordWithCode(codeHash, body.password);
      } catch (error) {
        if (error instanceof HttpError && error.code === 'weak_password') await countRefusedWithCode(codeHash, userId);
        throw error;
      }
      if (!outcome) throw authError(AUTH_MESSAGES.incorrectCode, 'incorrect_code');
      // The reset form offers no choice: a web session for this browser session only.
      const persistent = persists(client, undefined);
      return { jwt: await issue(outcome.user, outcome.epoch, { persistent }), user: outcome.user, persistent };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
