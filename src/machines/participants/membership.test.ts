import { describe, expect, it } from 'vitest';
import { makeInvitation, people } from '../../test/sharedFixtures.ts';
import {
  invitationDeleted,
  invited,
  inviteRefusal,
  membershipOf,
  removed,
  searchMessage,
  statusOf,
  type Membership,
} from './membership.ts';

const start: Membership = { members: [people.tess], pending: [{ ...people.pat, invitationId: 51 }] };

describe('membership (spec §4)', () => {
  it('leaves the owner out of what the server reports', () => {
    const m = membershipOf({ members: [people.lee, people.tess], pending: [] }, people.lee.id);
    expect(m.members).toEqual([people.tess]);
  });

  it('non-member → pending → non-member when the invitation is deleted', () => {
    expect(statusOf(start, people.theo.id)).toBe('nonMember');
    const after = invited(start, makeInvitation({ id: 77, to: people.theo }));
    expect(statusOf(after, people.theo.id)).toBe('pending');
    expect(after.pending.at(-1)).toEqual({ ...people.theo, invitationId: 77 });
    expect(statusOf(invitationDeleted(after, 77), people.theo.id)).toBe('nonMember');
  });

  it('member → non-member when removed', () => {
    expect(statusOf(start, people.tess.id)).toBe('member');
    expect(statusOf(removed(start, people.tess.id), people.tess.id)).toBe('nonMember');
  });

  it('does not list anyone twice', () => {
    expect(invited(start, makeInvitation({ id: 78, to: people.tess }))).toBe(start);
    expect(invited(start, makeInvitation({ id: 79, to: people.pat }))).toBe(start);
  });

  it('words the search box messages', () => {
    expect(searchMessage('', start, people.lee)).toBeNull();
    expect(inviteRefusal('  ', start, people.lee)).toBe('Email is required');
    expect(searchMessage('te', start, people.lee)).toBe('Please enter a valid email address to invite a new user.');
    expect(searchMessage(' TEACHER@example.org ', start, people.lee)).toBe(
      'TEACHER@example.org is already a member of this shared portfolio.',
    );
    expect(searchMessage('lead@example.org', start, people.lee)).toBe(
      'lead@example.org is already a member of this shared portfolio.',
    );
    expect(searchMessage('pat@example.org', start, people.lee)).toBe(
      'pat@example.org has already been invited to this shared portfolio.',
    );
    expect(inviteRefusal('someone@example.org', start, people.lee)).toBeNull();
  });
});
