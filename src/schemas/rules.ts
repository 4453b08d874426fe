/**
 * Limits and patterns of the contract that need no Zod: the login pages use them without
 * loading the schema library (see `src/services/lazySchemas.ts`).
 */

/** Largest id a Postgres `integer` column holds. */
export const MAX_ID = 2_147_483_647;

/**
 * The e-mail pattern both halves use: something@something.tld, no spaces.
 * Deliberately simple; the set-password e-mail proves the address works.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Longest e-mail address accepted (RFC 5321 path limit). */
export const EMAIL_MAX = 254;

/** Whether a string looks like an e-mail address. */
export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX && EMAIL_PATTERN.test(value);
}

/** Shortest password accepted when one is set. */
export const PASSWORD_MIN = 8;
/** Longest password accepted (bounds the hashing work). */
export const PASSWORD_MAX = 256;

/** A search for people to invite needs this many characters (shorter ones would page through the directory). */
export const MEMBER_SEARCH_MIN = 3;
