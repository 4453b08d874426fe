/**
 * Local drafts of typed text, kept in the browser (`localStorage`) as the text is typed, so that a
 * crash, a closed tab or a dead battery loses nothing. One draft per user, form and object: the
 * key names the user, so one user's drafts are never offered to another on the same browser.
 * A draft older than `DRAFT_MAX_AGE_MS` is dropped; a user's explicit sign-out drops theirs.
 */

/** A draft as stored. */
export interface StoredDraft {
  /** The typed text (a form with several fields stores them as JSON). */
  text: string;
  /** When it was typed (ISO). */
  savedAt: string;
  /** The version of the server's copy the text was typed over (e.g. its `updated_at`), or `null` for something new. */
  base: string | null;
}

const PREFIX = 'practicefolio.draft:';
/** How long a draft is kept. */
export const DRAFT_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** The longest draft kept (characters); longer text is not stored (the form's own limits are far lower). */
const DRAFT_MAX_CHARS = 100_000;

const keyOf = (userId: number, form: string) => `${PREFIX}${userId}:${form}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage can be disabled: then there are no drafts.
    return null;
  }
}

function parse(raw: string | null): StoredDraft | null {
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredDraft>;
    if (
      typeof value.text !== 'string' ||
      typeof value.savedAt !== 'string' ||
      !(typeof value.base === 'string' || value.base === null)
    )
      return null;
    return { text: value.text, savedAt: value.savedAt, base: value.base };
  } catch {
    return null;
  }
}

/** The user's draft of a form (`form` names the form and its object, e.g. `comment:new:70`), or `null`. */
export function readDraft(userId: number, form: string, now = Date.now()): StoredDraft | null {
  const store = storage();
  const draft = parse(store?.getItem(keyOf(userId, form)) ?? null);
  if (draft && now - Date.parse(draft.savedAt) > DRAFT_MAX_AGE_MS) {
    store?.removeItem(keyOf(userId, form));
    return null;
  }
  return draft;
}

/** Keeps the user's draft of a form. */
export function writeDraft(userId: number, form: string, text: string, base: string | null, now = Date.now()): void {
  if (text.length > DRAFT_MAX_CHARS) return;
  try {
    storage()?.setItem(
      keyOf(userId, form),
      JSON.stringify({ text, savedAt: new Date(now).toISOString(), base } satisfies StoredDraft),
    );
  } catch {
    // A full storage keeps no draft; the form itself still works.
  }
}

/** Forgets the user's draft of a form (saved or discarded). */
export function deleteDraft(userId: number, form: string): void {
  storage()?.removeItem(keyOf(userId, form));
}

/** Forgets every draft of a user (their sign-out), and every draft of anyone older than the maximum age. */
export function deleteDraftsOf(userId: number | null, now = Date.now()): void {
  const store = storage();
  if (!store) return;
  const keys: string[] = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (key?.startsWith(PREFIX)) keys.push(key);
  }
  for (const key of keys) {
    const mine = userId !== null && key.startsWith(`${PREFIX}${userId}:`);
    const draft = parse(store.getItem(key));
    if (mine || !draft || now - Date.parse(draft.savedAt) > DRAFT_MAX_AGE_MS) store.removeItem(key);
  }
}
