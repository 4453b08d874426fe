/**
 * Who belongs to a shared portfolio, as the Edit Participants dialog sees it, and the membership
 * transitions of spec §4: non-member → pending (invited) → member (accepts, elsewhere) or
 * non-member (invitation deleted); member → non-member (removed). The owner is never listed.
 * Pure functions only.
 */
import { isEmail } from '../../schemas/common.ts';
import { MEMBER_SEARCH_MIN } from '../../schemas/rules.ts';
import type { Invitation } from '../../schemas/invitation.ts';
import type { MembersResponse, Person } from '../../schemas/sharedPortfolio.ts';

/** Someone invited who has not answered yet. */
export type PendingPerson = Person & { invitationId: number };

/** Members and pending invitees, without the owner. */
export interface Membership {
  members: readonly Person[];
  pending: readonly PendingPerson[];
}

export type MembershipStatus = 'member' | 'pending' | 'nonMember';

/** The messages of the search box (spec §5, participant search). */
export const SEARCH_MESSAGES = {
  emailRequired: 'Email is required',
  invalidEmail: 'Please enter a valid email address to invite a new user.',
  alreadyMember: (email: string) => `${email} is already a member of this shared portfolio.`,
  alreadyInvited: (email: string) => `${email} has already been invited to this shared portfolio.`,
} as const;

/** The shortest search text that looks for people. */
/** The server's rule: a search for people needs at least this many characters. */
export const SEARCH_MIN = MEMBER_SEARCH_MIN;

const withoutOwner = <T extends Person>(people: readonly T[], ownerId: number): T[] =>
  people.filter((p) => p.id !== ownerId);

/** The membership the server reports. */
export function membershipOf(response: Pick<MembersResponse, 'members' | 'pending'>, ownerId: number): Membership {
  return { members: withoutOwner(response.members, ownerId), pending: withoutOwner(response.pending, ownerId) };
}

/** A person's place: member, pending invitee or neither. */
export function statusOf(membership: Membership, userId: number): MembershipStatus {
  if (membership.members.some((p) => p.id === userId)) return 'member';
  if (membership.pending.some((p) => p.id === userId)) return 'pending';
  return 'nonMember';
}

/** non-member → pending: the invitation was sent. */
export function invited(membership: Membership, invitation: Pick<Invitation, 'id' | 'to'>): Membership {
  const person: PendingPerson = { ...invitation.to, invitationId: invitation.id };
  if (statusOf(membership, person.id) !== 'nonMember') return membership;
  return { ...membership, pending: [...membership.pending, person] };
}

/** pending → non-member: the invitation was deleted. */
export function invitationDeleted(membership: Membership, invitationId: number): Membership {
  return { ...membership, pending: membership.pending.filter((p) => p.invitationId !== invitationId) };
}

/** member → non-member: the member was removed. */
export function removed(membership: Membership, userId: number): Membership {
  return { ...membership, members: membership.members.filter((p) => p.id !== userId) };
}

const sameEmail = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * What the search box says about its text before anything is sent: nothing for an empty box,
 * the e-mail hint until the text is an address, and whether the address already belongs to the
 * portfolio (`people` are the owner and everyone listed).
 */
export function searchMessage(text: string, membership: Membership, owner: Person): string | null {
  const email = text.trim();
  if (email === '') return null;
  if (!isEmail(email)) return SEARCH_MESSAGES.invalidEmail;
  if (sameEmail(owner.email, email) || membership.members.some((p) => sameEmail(p.email, email)))
    return SEARCH_MESSAGES.alreadyMember(email);
  if (membership.pending.some((p) => sameEmail(p.email, email))) return SEARCH_MESSAGES.alreadyInvited(email);
  return null;
}

/** Why the text cannot be invited by e-mail (`null` when it can). */
export function inviteRefusal(text: string, membership: Membership, owner: Person): string | null {
  if (text.trim() === '') return SEARCH_MESSAGES.emailRequired;
  return searchMessage(text, membership, owner);
}

/** Who the list shows: members first, then pending invitees, each in the order the server gave. */
export function participantsOf(
  membership: Membership,
): ({ person: Person; pending: false } | { person: PendingPerson; pending: true })[] {
  return [
    ...membership.members.map((person) => ({ person, pending: false as const })),
    ...membership.pending.map((person) => ({ person, pending: true as const })),
  ];
}
