import { EventEmitter } from 'node:events';

/**
 * Who a session belongs to changed (an account's row, or one session): said in this process by
 * the repositories that write them, and in every process by PostgreSQL (`NOTIFY principal_changed`
 * from the triggers of migration 0006). Caches of the signed-in principal listen to both.
 */
export const PRINCIPAL_CHANNEL = 'principal_changed';

export interface PrincipalChange {
  kind: 'user' | 'session';
  id: string;
}

class PrincipalChanges extends EventEmitter<{ change: [PrincipalChange] }> {
  /** Says that the account `id` changed (blocked, password, sessions ended, profile). */
  user(id: number): void {
    this.emit('change', { kind: 'user', id: String(id) });
  }
  /** Says that the session `id` changed (ended). */
  session(id: string): void {
    this.emit('change', { kind: 'session', id });
  }
}

export const principalChanges = new PrincipalChanges();
principalChanges.setMaxListeners(0);

/** Reads a `principal_changed` payload (`u<id>` or `s<id>`). */
export function parsePrincipalPayload(payload: string | undefined): PrincipalChange | null {
  if (!payload || payload.length < 2) return null;
  if (payload[0] === 'u') return { kind: 'user', id: payload.slice(1) };
  if (payload[0] === 's') return { kind: 'session', id: payload.slice(1) };
  return null;
}
