import { createRequire } from 'node:module';
import type * as Zxcvbn from '@zxcvbn-ts/language-common';
import { PASSWORD_MIN } from '#schemas/auth';

const requireAtFirstUse = createRequire(import.meta.url);
let zxcvbn: typeof Zxcvbn | undefined;
/**
 * zxcvbn's word lists and keyboard graphs, loaded at the first password check: unpacking them
 * takes longer than anything else the server loads, and only a new password needs them.
 */
function zxcvbnLists(): typeof Zxcvbn {
  zxcvbn ??= requireAtFirstUse('@zxcvbn-ts/language-common') as typeof Zxcvbn;
  return zxcvbn;
}

/** The refusals of a new password (NIST SP 800-63B: length, a list of common passwords, the account's own names). */
export const PASSWORD_POLICY_MESSAGES = {
  tooShort: `Your new password must be at least ${PASSWORD_MIN} characters long.`,
  blank: 'Your new password cannot be only spaces.',
  common: 'This password is too common and easy to guess. Please choose another one.',
  personal: 'Your new password must not contain your e-mail address or your username.',
  pattern: 'Your new password is a sequence or a run of keys (like abcdefgh or qwertyui). Please choose another one.',
  context: 'Your new password must not contain the portal’s name, its address, the demo password or your own names.',
} as const;

/** The product's own words (NIST SP 800-63B: context-specific words). */
const PRODUCT_WORDS = ['practicefolio', 'practice folio', 'spiral-demo', 'spiraldemo'];

type Graph = Record<string, (string | null)[]>;
const graphs = () => zxcvbnLists().adjacencyGraphs as unknown as Record<string, Graph>;

/** Whether `b` follows `a` in the alphabet or digits (either way), or is next to it on a keyboard (zxcvbn's graphs). */
function linked(a: string, b: string): boolean {
  const step = b.codePointAt(0)! - a.codePointAt(0)!;
  if (Math.abs(step) === 1 && /[a-z0-9]/.test(a) && /[a-z0-9]/.test(b)) return true;
  return Object.values(graphs()).some((graph) => (graph[a] ?? []).some((keys) => keys !== null && keys.includes(b)));
}

/** Whether most of the password is sequences or keyboard runs of 4 or more characters. */
function mostlyRuns(text: string): boolean {
  const chars = [...text.replace(/\s+/g, '')];
  if (chars.length === 0) return false;
  let covered = 0;
  let run = 1;
  for (let i = 1; i <= chars.length; i += 1) {
    if (i < chars.length && linked(chars[i - 1]!, chars[i]!)) run += 1;
    else {
      if (run >= 4) covered += run;
      run = 1;
    }
  }
  return covered / chars.length >= 0.75;
}

/** The words of the portal's own address (`portal.school.example` → `portal`, `school`). */
function hostWords(publicUrl: string | undefined): string[] {
  if (!publicUrl) return [];
  try {
    const host = new URL(publicUrl).hostname.toLowerCase();
    return [
      host,
      ...host.split(/[.-]/).filter((w) => w.length >= 4 && !['www', 'example', 'local', 'localhost'].includes(w)),
    ];
  } catch {
    return [];
  }
}

const normalise = (text: string): string => text.normalize('NFKC').toLowerCase();

let common: Set<string> | undefined;
/** zxcvbn's list of common passwords (49,000 from real breaches), those long enough to be allowed otherwise. */
function commonPasswords(): Set<string> {
  common ??= new Set(
    zxcvbnLists()
      .dictionary['passwords-common'].filter((p) => p.length >= PASSWORD_MIN)
      .map(normalise),
  );
  return common;
}

/** Why `password` may not be the account's new password, or `null` when it may. */
export function passwordProblem(
  password: string,
  account: { email: string; username: string },
  publicUrl?: string,
): string | null {
  if ([...password].length < PASSWORD_MIN) return PASSWORD_POLICY_MESSAGES.tooShort;
  if (password.trim() === '') return PASSWORD_POLICY_MESSAGES.blank;
  const text = normalise(password);
  const squeezed = text.replace(/\s+/g, '');
  if (commonPasswords().has(text) || commonPasswords().has(squeezed) || new Set(squeezed).size <= 2)
    return PASSWORD_POLICY_MESSAGES.common;
  const email = normalise(account.email);
  const names = [
    email,
    email.split('@')[0] ?? '',
    normalise(account.username),
    normalise(account.username).replace(/\s+/g, ''),
  ];
  if (names.some((name) => name.length >= 4 && (text.includes(name) || squeezed.includes(name))))
    return PASSWORD_POLICY_MESSAGES.personal;
  if (mostlyRuns(text)) return PASSWORD_POLICY_MESSAGES.pattern;
  // The user's own names: the parts of the username and of the e-mail's local part.
  const ownNames = [...normalise(account.username).split(/[\s._-]+/), ...(email.split('@')[0] ?? '').split(/[._+-]+/)];
  const context = [...PRODUCT_WORDS, ...hostWords(publicUrl), ...ownNames].filter((w) => w.length >= 4);
  if (context.some((word) => text.includes(word) || squeezed.includes(word.replace(/\s+/g, ''))))
    return PASSWORD_POLICY_MESSAGES.context;
  return null;
}
