import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { Person } from '../../schemas/sharedPortfolio.ts';
import type { UiError } from '../../services/errors.ts';
import { participantsOf, type Membership } from './membership.ts';
import type { ParticipantRemovalMachine } from '../participantRemoval/participantRemovalMachine.ts';
import type { participantsMachine, Removal } from './participantsMachine.ts';

export type ParticipantsRef = ActorRefFrom<typeof participantsMachine>;
type RemovalRef = ActorRefFrom<ParticipantRemovalMachine>;

/** The removal under way (its question, then its request), while there is one. */
function useRemovalRef(ref: ParticipantsRef): RemovalRef | undefined {
  // Children are typed as a union of every actor the machine may start; this id is the removal's.
  return useSelector(ref, (s) => s.children.participantRemoval as RemovalRef | undefined);
}

export type ParticipantsStatus = 'closed' | 'loading' | 'loadFailed' | 'ready';

/** Where the dialog stands. */
export function useParticipantsStatus(ref: ParticipantsRef): ParticipantsStatus {
  return useSelector(ref, (s) => {
    if (s.matches('closed')) return 'closed';
    if (s.matches({ open: 'loading' })) return 'loading';
    if (s.matches({ open: 'loadFailed' })) return 'loadFailed';
    return 'ready';
  });
}

/** Everyone the portfolio is shared with: the owner (a member) first, then the other members. */
export function useSharedWith(ref: ParticipantsRef): readonly Person[] {
  const owner = useSelector(ref, (s) => s.context.owner);
  const ownerIsMember = useSelector(ref, (s) => s.context.ownerIsMember);
  const members = useSelector(ref, (s) => s.context.membership.members);
  return useMemo(() => (ownerIsMember ? [owner, ...members] : [...members]), [owner, ownerIsMember, members]);
}

/** The dialog's state for its view. */
export function useParticipants(ref: ParticipantsRef): {
  membership: Membership;
  participants: ReturnType<typeof participantsOf>;
  text: string;
  message: string | null;
  invalid: boolean;
  matches: readonly Person[];
  searching: boolean;
  busy: boolean;
  inviting: boolean;
  removal: Removal | null;
  confirming: boolean;
  announcement: string;
  error: UiError | null;
} {
  const membership = useSelector(ref, (s) => s.context.membership);
  const participants = useMemo(() => participantsOf(membership), [membership]);
  const text = useSelector(ref, (s) => s.context.text);
  const message = useSelector(ref, (s) => s.context.message);
  const invalid = useSelector(ref, (s) => s.context.invalid);
  const matches = useSelector(ref, (s) => s.context.matches);
  const searching = useSelector(ref, (s) => s.matches({ open: { ready: 'searching' } }));
  const removalRef = useRemovalRef(ref);
  const removalBusy = useSelector(removalRef, (s) => s?.hasTag('busy') ?? false);
  const busy = useSelector(ref, (s) => s.hasTag('busy')) || removalBusy;
  const inviting = useSelector(ref, (s) => s.matches({ open: 'inviting' }));
  const removal = useSelector(ref, (s) => s.context.removal);
  const confirming = useSelector(ref, (s) => s.matches({ open: 'removing' }));
  const announcement = useSelector(ref, (s) => s.context.announcement);
  const error = useSelector(ref, (s) => s.context.error);
  return {
    membership,
    participants,
    text,
    message,
    invalid,
    matches,
    searching,
    busy,
    inviting,
    removal,
    confirming,
    announcement,
    error,
  };
}

/** What the dialog's view may ask (of the removal under way: Yes and NO; of the dialog: the rest). */
export function useParticipantsEvents(ref: ParticipantsRef) {
  const removal = useRemovalRef(ref);
  return useMemo(
    () => ({
      open: () => ref.send({ type: 'dialog.open' }),
      close: () => ref.send({ type: 'dialog.close' }),
      retry: () => ref.send({ type: 'retry' }),
      changeSearch: (text: string) => ref.send({ type: 'search.change', text }),
      submitInvite: () => ref.send({ type: 'invite.submit' }),
      invitePerson: (person: Person) => ref.send({ type: 'invite.person', person }),
      remove: (userId: number) => ref.send({ type: 'participant.remove', userId }),
      confirmRemoval: () => removal?.send({ type: 'removal.confirm' }),
      cancelRemoval: () => removal?.send({ type: 'removal.cancel' }),
    }),
    [ref, removal],
  );
}
