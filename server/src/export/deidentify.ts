import { createHmac } from 'node:crypto';

/** Characters of hexadecimal HMAC a pseudonym keeps (80 bits: no collision among millions of accounts). */
const PSEUDONYM_HEX = 20;

/**
 * The stable pseudonym of an account: `P-` and the start of HMAC-SHA256(secret, "user:<id>").
 * The same id gives the same pseudonym in every export under one installation secret; without
 * the secret it cannot be turned back into the id.
 */
export function pseudonym(secret: Buffer, userId: number): string {
  return `P-${createHmac('sha256', secret).update(`user:${userId}`).digest('hex').slice(0, PSEUDONYM_HEX)}`;
}

/** An account whose name and address must not appear in a de-identified package. */
export interface KnownPerson {
  id: number;
  username: string;
  email: string;
}

/** What replaces a mention that fits several people, or an address of nobody known. */
export const AMBIGUOUS_MENTION = '[member]';
export const UNKNOWN_EMAIL = '[email]';

const TOKEN =
  /([\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)|@([\p{L}\p{N}_](?:[\p{L}\p{N}_.'-]*[\p{L}\p{N}_])?)|([\p{L}\p{N}]+)/gu;
const WORD = /[\p{L}\p{N}]+/gu;
/** What may separate the words of a name in a text: a few characters that are not letters or digits. */
const NAME_GAP = /^[^\p{L}\p{N}]{1,4}$/u;
const MIN_FIRST_NAME = 3;
/** A joined user name or an e-mail's local part is matched as a plain word from this length on. */
const MIN_JOINED = 4;
const ONE_WORD = /^[\p{L}\p{N}]+$/u;

const words = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

interface Token {
  kind: 'email' | 'mention' | 'word';
  start: number;
  end: number;
  /** The e-mail, the handle after `@`, or the word. */
  value: string;
}

function add(map: Map<string, Set<number>>, key: string, id: number): void {
  if (key.length === 0) return;
  const set = map.get(key) ?? new Set<number>();
  set.add(id);
  map.set(key, set);
}

/**
 * Replaces, in free text, every mention of a known person by that person's pseudonym: their
 * e-mail address, their username (its words in order, whatever the case and the punctuation
 * between them, e.g. "Ana Lopez", "ana lopez", "Ana-Lopez"), an `@handle` made of the username
 * (with or without separators), one of its words or the e-mail's local part ("@ana",
 * "@ana.lopez"), the username's first word (three letters or more, in any case: "Ana, could
 * you…", "ask ana"), and the username's words joined without separators or an e-mail's local
 * part of one word, as a plain word in any case ("AnaLopez", "analopez", "asilva"). A mention that fits several people becomes `[member]`; an e-mail
 * address of nobody known becomes `[email]`. Work is linear in the text (one tokenising pass and
 * map look-ups), whatever the number of people.
 */
export class Deidentifier {
  private readonly emails = new Map<string, Set<number>>();
  private readonly handles = new Map<string, Set<number>>();
  private readonly firstNames = new Map<string, Set<number>>();
  /** Joined user names and one-word e-mail local parts, lower-case. */
  private readonly joined = new Map<string, Set<number>>();
  /** First word of a username → the usernames' word lists that start with it, longest first. */
  private readonly names = new Map<string, { words: string[]; ids: Set<number> }[]>();

  constructor(
    people: Iterable<KnownPerson>,
    private readonly pseudonymOf: (id: number) => string,
  ) {
    for (const person of people) {
      const email = person.email.toLowerCase();
      add(this.emails, email, person.id);
      const local = email.split('@')[0] ?? '';
      add(this.handles, local, person.id);
      if (local.length >= MIN_JOINED && ONE_WORD.test(local)) add(this.joined, local, person.id);
      const parts = words(person.username);
      if (parts.length === 0) continue;
      if (parts.length > 1 && parts.join('').length >= MIN_JOINED) add(this.joined, parts.join(''), person.id);
      add(this.handles, parts.join(''), person.id);
      add(this.handles, parts.join('.'), person.id);
      add(this.handles, parts.join('_'), person.id);
      add(this.handles, parts.join('-'), person.id);
      for (const part of parts) if (part.length >= 2) add(this.handles, part, person.id);
      if (parts.length > 1 && parts[0]!.length >= MIN_FIRST_NAME) add(this.firstNames, parts[0]!, person.id);
      const list = this.names.get(parts[0]!) ?? [];
      const same = list.find((n) => n.words.join(' ') === parts.join(' '));
      if (same) same.ids.add(person.id);
      else list.push({ words: parts, ids: new Set([person.id]) });
      list.sort((a, b) => b.words.length - a.words.length);
      this.names.set(parts[0]!, list);
    }
  }

  private replacement(ids: ReadonlySet<number>): string {
    return ids.size === 1 ? this.pseudonymOf(ids.values().next().value!) : AMBIGUOUS_MENTION;
  }

  /** The text with every mention of a known person replaced. */
  text(value: string): string {
    if (value.length === 0) return value;
    const tokens: Token[] = [];
    for (const m of value.matchAll(TOKEN)) {
      const start = m.index;
      const kind = m[1] !== undefined ? 'email' : m[2] !== undefined ? 'mention' : 'word';
      tokens.push({ kind, start, end: start + m[0].length, value: m[1] ?? m[2] ?? m[3]! });
    }
    let out = '';
    let copied = 0;
    const replace = (start: number, end: number, by: string) => {
      out += value.slice(copied, start) + by;
      copied = end;
    };
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (token.kind === 'email') {
        const ids = this.emails.get(token.value.toLowerCase());
        replace(token.start, token.end, ids ? this.replacement(ids) : UNKNOWN_EMAIL);
        continue;
      }
      if (token.kind === 'mention') {
        const ids = this.handles.get(token.value.toLowerCase());
        if (ids) replace(token.start, token.end, `@${this.replacement(ids)}`);
        continue;
      }
      const lower = token.value.toLowerCase();
      const matched = this.names.get(lower)?.find((name) => this.namesAt(value, tokens, i, name.words));
      if (matched) {
        const last = tokens[i + matched.words.length - 1]!;
        replace(token.start, last.end, this.replacement(matched.ids));
        i += matched.words.length - 1;
        continue;
      }
      const whole = this.joined.get(lower);
      if (whole) {
        replace(token.start, token.end, this.replacement(whole));
        continue;
      }
      const first = this.firstNames.get(lower);
      if (first) replace(token.start, token.end, this.replacement(first));
    }
    return copied === 0 ? value : out + value.slice(copied);
  }

  /** Whether the tokens from `i` spell `name` word by word, separated only by a little punctuation. */
  private namesAt(text: string, tokens: readonly Token[], i: number, name: readonly string[]): boolean {
    for (let k = 0; k < name.length; k++) {
      const token = tokens[i + k];
      if (!token || token.kind !== 'word' || token.value.toLowerCase() !== name[k]) return false;
      if (k > 0 && !NAME_GAP.test(text.slice(tokens[i + k - 1]!.end, token.start))) return false;
    }
    return true;
  }
}
