import { isEmail } from '#schemas/common';
import { PASSWORD_MIN, type ResetPasswordBody } from '#schemas/auth';
import type { User } from '#schemas/user';
import { authError, HttpError, tooManyRequests } from '../errors.ts';
import { resetPasswordMessage } from '../mail/messages.ts';
import { authEventRepository } from '../repositories/authEventRepository.ts';
import { loginAddressRepository } from '../repositories/loginAddressRepository.ts';
import { passwordCodeRepository } from '../repositories/passwordCodeRepository.ts';
import { userRepository } from '../repositories/userRepository.ts';
import { passwordProblem } from '../security/passwordPolicy.ts';
import { hashPassword } from '../security/passwords.ts';
import { hashCode, newOneTimeCode } from '../security/tokens.ts';
import { AUTH_MESSAGES } from './authMessages.ts';
import type { SignIn, SignInClient } from './authService.ts';
import type { ServiceContext } from './context.ts';

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

/** What a password reset takes from the auth service: issuing a session's token, and whether a client's session persists. */
interface SessionIssuer {
  issue(user: User, epoch: number, session: { persistent: boolean }): Promise<string>;
  persists(client: SignInClient, remember: boolean | undefined): boolean;
}

/** Password resets: asking for a link by e-mail, and setting a new password with its code. */
export function createPasswordReset(ctx: ServiceContext, { issue, persists }: SessionIssuer) {
  const { db } = ctx;

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
      if (
        (await authEventRepository.count(tx, 'reset_code_failure', codeHash, RESET_CODE_TTL_SECONDS)) >=
        RESET_CODE_FAILURE_LIMIT
      ) {
        await passwordCodeRepository.voidCode(tx, codeHash);
      }
      if (
        (await authEventRepository.count(tx, 'reset_account_failure', String(userId), RESET_FAILURE_WINDOW_SECONDS)) >=
        RESET_ACCOUNT_FAILURE_LIMIT
      ) {
        await passwordCodeRepository.voidAllFor(tx, userId);
      }
    });
  };

  return {
    /**
     * E-mails a reset link when the address belongs to an active account. Answers the same
     * either way, so that nobody learns which addresses have accounts.
     * @throws 400 for a malformed address; 429 when this requester asked for it too often.
     */
    async forgotPassword(emailInput: string, clientAddress = 'unknown'): Promise<{ ok: true }> {
      const email = emailInput.trim().toLowerCase();
      if (!isEmail(email)) throw authError(AUTH_MESSAGES.invalidEmail, 'invalid_email');
      const attempt = await db.transaction((tx) =>
        authEventRepository.attempt(
          tx,
          'forgot_request',
          `${email}|${clientAddress}`,
          FORGOT_LIMIT,
          FORGOT_WINDOW_SECONDS,
        ),
      );
      if (!attempt.allowed) throw tooManyRequests(AUTH_MESSAGES.tooManyForgot, true);
      const record = await userRepository.findByEmail(db, email);
      if (!record || record.user.blocked) return { ok: true };
      // Others cannot use up the owner's reset e-mails: past the account's limit, only addresses
      // that have signed in to it get a mail; the rest get the same answer and no mail.
      const known = await loginAddressRepository.known(db, record.user.id, clientAddress);
      const mailed = known
        ? { allowed: true as const, id: await authEventRepository.record(db, 'forgot_email', email) }
        : await db.transaction((tx) =>
            authEventRepository.attempt(tx, 'forgot_email', email, FORGOT_EMAIL_LIMIT, FORGOT_WINDOW_SECONDS),
          );
      if (!mailed.allowed) return { ok: true };
      const { code, hash } = newOneTimeCode();
      // Only the newest link works: earlier codes of the account end now.
      await db.transaction(async (tx) => {
        await passwordCodeRepository.voidAllFor(tx, record.user.id);
        await passwordCodeRepository.create(tx, {
          userId: record.user.id,
          hash,
          purpose: 'reset',
          ttlSeconds: RESET_CODE_TTL_SECONDS,
        });
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
      if (!body.code || !body.password || !body.passwordConfirmation)
        throw authError(AUTH_MESSAGES.incorrectParams, 'incorrect_params');
      if (body.password !== body.passwordConfirmation) throw authError(AUTH_MESSAGES.mismatch, 'password_mismatch');
      if (body.password.length < PASSWORD_MIN) throw authError(AUTH_MESSAGES.tooShort, 'password_too_short');
      const codeHash = hashCode(body.code);
      // A valid, unexpired code always works, whatever other people behind the same address
      // (a school's one address) typed before: the per-address limit counts wrong codes only.
      const userId = await passwordCodeRepository.usableFor(db, codeHash);
      if (userId === null) {
        const attempt = await db.transaction((tx) =>
          authEventRepository.attempt(
            tx,
            'reset_failure',
            clientAddress,
            RESET_FAILURE_LIMIT,
            RESET_FAILURE_WINDOW_SECONDS,
          ),
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
