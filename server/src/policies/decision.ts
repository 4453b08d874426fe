/** The outcome of a policy: go ahead, or answer as forbidden (403) or as missing (404). */
export type Decision = { ok: true } | { ok: false; status: 403 | 404; message: string };

export const allow: Decision = { ok: true };

/** A refusal: 403 when the caller may know the object exists, 404 when not. */
export const deny = (status: 403 | 404, message: string): Decision => ({ ok: false, status, message });
