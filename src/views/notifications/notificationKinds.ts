import type { EmailFrequency, NotificationKind } from '../../schemas/notifications.ts';

/** Each kind of notification, in the order the settings list them, as people name it. */
export const KIND_TEXT: Readonly<Record<NotificationKind, { label: string; description: string }>> = {
  comment: { label: 'Comments', description: 'Someone comments on an artifact you own or shared.' },
  reply: { label: 'Replies', description: 'Someone comments on an artifact you have commented on.' },
  mention: { label: 'Mentions', description: 'Someone mentions you with @ in a comment.' },
  score: { label: 'Rubric scores', description: 'Someone scores an artifact you shared against a rubric.' },
  reaction: { label: 'Reactions', description: 'Someone reacts to an artifact you shared.' },
  snapshot_edited: {
    label: 'Edits of your shared artifacts',
    description: 'Someone else edits an artifact you shared.',
  },
  invitation_received: { label: 'Invitations', description: 'Someone invites you to a shared portfolio.' },
  invitation_accepted: {
    label: 'Accepted invitations',
    description: 'Someone accepts your invitation to a shared portfolio.',
  },
  removed: { label: 'Removal from a shared portfolio', description: 'You are removed from a shared portfolio.' },
};

/** The kinds in the order the settings list them. */
export const KIND_ORDER = Object.keys(KIND_TEXT) as NotificationKind[];

/** The e-mail choices as the settings name them. */
export const FREQUENCY_TEXT: Readonly<Record<EmailFrequency, string>> = {
  immediately: 'Immediately',
  daily: 'Daily digest',
  off: 'Off',
};
