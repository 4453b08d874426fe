import { PASSWORD_MIN } from '#schemas/auth';
import { waitWords } from './loginThrottle.ts';

/** What the log-in, session and password-reset answers say. */
export const AUTH_MESSAGES = {
  invalidLogin: 'Identifier or password invalid.',
  blocked: 'Your account has been blocked by an administrator',
  blockedSession: 'Your account has been blocked by the administrator.',
  sessionEnded: 'Your session has ended. Please log in again.',
  tooManyLogins: (seconds: number) =>
    `Too many failed login attempts. Please wait ${waitWords(seconds)} and try again.`,
  tooManyFromAddress: 'Too many failed login attempts from your network. Please wait 15 minutes and try again.',
  tooManyForgot: 'Too many reset requests for this address. Please wait an hour and try again.',
  tooManyResets: 'Too many attempts. Please wait an hour and try again.',
  invalidEmail: 'Please provide a valid email address.',
  incorrectParams: 'Incorrect params provided.',
  mismatch: 'Passwords do not match.',
  tooShort: `Your new password must be at least ${PASSWORD_MIN} characters long.`,
  incorrectCode: 'Incorrect code provided.',
} as const;
