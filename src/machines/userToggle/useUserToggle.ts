import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { User } from '../../schemas/user.ts';
import type { userToggleMachine } from './userToggleMachine.ts';

export type UserToggleRef = ActorRefFrom<typeof userToggleMachine>;
type UserToggleSnapshot = SnapshotFrom<typeof userToggleMachine>;

/** Whether the switch shows the account as active: the value being saved, else the server's. */
export const selectActive = (s: UserToggleSnapshot): boolean => !(s.context.pendingBlocked ?? s.context.user.blocked);

/** What a row shows. */
export interface UserToggleView {
  user: User;
  active: boolean;
  saving: boolean;
  failed: boolean;
  isSelf: boolean;
}

const selectView = (s: UserToggleSnapshot): UserToggleView => ({
  user: s.context.user,
  active: selectActive(s),
  saving: s.hasTag('busy'),
  failed: s.matches('failed'),
  isSelf: s.context.isSelf,
});

const sameView = (a: UserToggleView, b: UserToggleView): boolean =>
  a.user === b.user && a.active === b.active && a.saving === b.saving && a.failed === b.failed && a.isSelf === b.isSelf;

/** One row's account and switch state (one subscription per row: tables may hold hundreds). */
export function useUserToggle(ref: UserToggleRef): UserToggleView {
  return useSelector(ref, selectView, sameView);
}

/** What a row may ask: switch Active. */
export function useUserToggleEvents(ref: UserToggleRef): { toggle: () => void } {
  return useMemo(() => ({ toggle: () => ref.send({ type: 'user.toggle' }) }), [ref]);
}
