import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MIN } from '#schemas/auth';

/** The refusals of a new password (NIST SP 800-63B: length, a list of common passwords, the account's own names). */
export const PASSWORD_POLICY_MESSAGES = {
  tooShort: `Your new password must be at least ${PASSWORD_MIN} characters long.`,
  blank: 'Your new password cannot be only spaces.',
  common: 'This password is too common and easy to guess. Please choose another one.',
  personal: 'Your new password must not contain your e-mail address or your username.',
} as const;

const normalise = (text: string): string => text.normalize('NFKC').toLowerCase();

let common: Set<string> | undefined;
/** zxcvbn's list of common passwords (49,000 from real breaches), those long enough to be allowed otherwise. */
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].filter((p) => p.length >= PASSWORD_MIN).map(normalise));
  return common;
}

/** Why `password` may not be the account's new password, or `null` when it may. */
export function passwordProblem(password: string, account: { email: string; username: string }): string | null {
  if ([...password].length < PASSWORD_MIN) return PASSWORD_POLICY_MESSAGES.tooShort;
  if (password.trim() === '') return PASSWORD_POLICY_MESSAGES.blank;
  const text = normalise(password);
  const squeezed = text.replace(/\s+/g, '');
  if (commonPasswords().has(text) || commonPasswords().has(squeezed) || new Set(squeezed).size <= 2) return PASSWORD_POLICY_MESSAGES.common;
  const email = normalise(account.email);
  const names = [email, email.split('@')[0] ?? '', normalise(account.username), normalise(account.username).replace(/\s+/g, '')];
  if (names.some((name) => name.length >= 4 && (text.includes(name) || squeezed.includes(name)))) return PASSWORD_POLICY_MESSAGES.personal;
  return null;
}
