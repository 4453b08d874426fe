import { describe, expect, it } from 'vitest';
import type { User } from '#schemas/user';
import { allow, deny } from './decision.ts';
import {
  canChangeOwn,
  canCreateShared,
  canManageShared,
  canReadShared,
  canWorkInShared,
  isMember,
  SHARED_MESSAGES,
} from './sharedPolicy.ts';

const actor = (id: number, type: User['role']['type']): Pick<User, 'id' | 'role'> => ({
  id,
  role: { id: type === 'researcher' ? 4 : type === 'plc_lead' ? 3 : 1, name: type, description: '', type },
});
const owner = actor(1, 'plc_lead');
const member = actor(2, 'authenticated');
const outsider = actor(3, 'authenticated');
const otherLead = actor(4, 'plc_lead');
const researcher = actor(5, 'researcher');
const sp = { ownerId: owner.id, memberIds: [owner.id, member.id] };

describe('shared portfolio policy', () => {
  it('knows members', () => {
    expect([owner, member, outsider, researcher].map((a) => isMember(a, sp))).toEqual([true, true, false, false]);
  });

  it('lets members, invitees and researchers read; others hear the message of a missing object', () => {
    for (const who of [owner, member, researcher]) expect(canReadShared(who, sp, false)).toEqual(allow);
    expect(canReadShared(outsider, sp, true)).toEqual(allow);
    expect(canReadShared(outsider, sp, false)).toEqual(deny(404, SHARED_MESSAGES.notFound));
    expect(canReadShared(outsider, sp, false, SHARED_MESSAGES.artifactNotFound)).toEqual(
      deny(404, SHARED_MESSAGES.artifactNotFound),
    );
  });

  it('lets PLC leads and researchers create shared portfolios, not teachers', () => {
    expect(canCreateShared(otherLead)).toEqual(allow);
    expect(canCreateShared(researcher)).toEqual(allow);
    expect(canCreateShared(member)).toEqual(deny(403, SHARED_MESSAGES.noPermission));
  });

  it('lets the owner and researchers manage; members are told no; others hear "not found"', () => {
    expect(canManageShared(owner, sp)).toEqual(allow);
    expect(canManageShared(researcher, sp)).toEqual(allow);
    expect(canManageShared(member, sp)).toEqual(deny(403, SHARED_MESSAGES.ownerOnly));
    expect(canManageShared(outsider, sp)).toEqual(deny(404, SHARED_MESSAGES.notFound));
    expect(canManageShared(otherLead, sp, SHARED_MESSAGES.invalidPortfolio)).toEqual(
      deny(404, SHARED_MESSAGES.invalidPortfolio),
    );
  });

  it('lets members and researchers work inside', () => {
    for (const who of [owner, member, researcher]) expect(canWorkInShared(who, sp)).toEqual(allow);
    expect(canWorkInShared(outsider, sp)).toEqual(deny(404, SHARED_MESSAGES.notFound));
    expect(canWorkInShared(outsider, sp, SHARED_MESSAGES.invalidArtifact)).toEqual(
      deny(404, SHARED_MESSAGES.invalidArtifact),
    );
  });

  it('lets only the author change a comment or reaction, while inside', () => {
    const mine = { owner: { id: member.id } };
    expect(canChangeOwn(member, mine, sp, SHARED_MESSAGES.commentNotFound)).toEqual(allow);
    expect(canChangeOwn(owner, mine, sp, SHARED_MESSAGES.commentNotFound)).toEqual(deny(403, SHARED_MESSAGES.notYours));
    expect(canChangeOwn(researcher, mine, sp, SHARED_MESSAGES.commentNotFound)).toEqual(
      deny(403, SHARED_MESSAGES.notYours),
    );
    expect(canChangeOwn(outsider, mine, sp, SHARED_MESSAGES.commentNotFound)).toEqual(
      deny(404, SHARED_MESSAGES.commentNotFound),
    );
    const formerMembers = { ownerId: owner.id, memberIds: [owner.id] };
    expect(canChangeOwn(member, mine, formerMembers, SHARED_MESSAGES.reactionNotFound)).toEqual(
      deny(404, SHARED_MESSAGES.reactionNotFound),
    );
    expect(
      canChangeOwn(researcher, { owner: { id: researcher.id } }, formerMembers, SHARED_MESSAGES.commentNotFound),
    ).toEqual(allow);
  });
});
