import { describe, expect, it } from 'vitest';
import { MembersResponseSchema } from '#schemas/sharedPortfolio';
import {
  createInvitation,
  createLead,
  createResearcher,
  createSharedPortfolio,
  createTeacher,
  createUser,
  snapshot,
  type TestUser,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp();

const read = (token: string, id: number) => t.api({ method: 'GET', url: `/shared-portfolios/${id}`, token });
const members = (token: string, id: number, query = '') =>
  t.api({ method: 'GET', url: `/shared-portfolios/${id}/members${query}`, token });
const leave = (token: string, id: number, payload?: unknown) =>
  t.api({
    method: 'POST',
    url: `/shared-portfolios/${id}/leave`,
    token,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const removeUser = (token: string, id: number, userId: number | string) =>
  t.api({ method: 'POST', url: `/shared-portfolios/${id}/remove-user/${userId}`, token });

const person = (u: TestUser) => ({ id: u.user.id, username: u.user.username, email: u.user.email });

describe('GET /shared-portfolios/{id}/members', () => {
  it('lists the members without the owner and the pending invitees with their invitation ids', async () => {
    const lead = await createLead(t);
    const m1 = await createTeacher(t);
    const m2 = await createLead(t);
    const invitee = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [m1, m2] });
    const invitationId = await createInvitation(t, sp, invitee);
    const res = await members(lead.token, sp.id);
    expect(res).toHaveStatus(200);
    const list = MembersResponseSchema.parse(res.json());
    expect(list.members.map((p) => p.id).sort()).toEqual([m1.user.id, m2.user.id].sort());
    expect(list.pending).toEqual([{ ...person(invitee), invitationId }]);
    expect(list.nonMembers).toEqual([]);
  });

  it('offers people to invite only for a search of at least 3 characters: by the start of an e-mail or of a word of the name, at most 20, never blocked people, members or invitees; addresses shown in full only to whoever typed them', async () => {
    const lead = await createLead(t);
    const tag = `zq${Date.now().toString(36)}`;
    const matches: TestUser[] = [];
    for (let i = 0; i < 22; i += 1)
      matches.push(await createUser(t, { email: `${tag}-${i}@school.example`, username: `Person ${i} ${tag}` }));
    const byName = await createUser(t, { username: `Ada ${tag.toUpperCase()} Lovelace` });
    const blocked = await createUser(t, { email: `${tag}-blocked@school.example`, blocked: true });
    const sp = await createSharedPortfolio(t, lead, { members: [matches[0]!], invitees: [matches[1]!] });

    expect(MembersResponseSchema.parse((await members(lead.token, sp.id, '?search=z')).json()).nonMembers).toEqual([]);
    expect(
      MembersResponseSchema.parse((await members(lead.token, sp.id, `?search=${tag.slice(0, 2)}`)).json()).nonMembers,
    ).toEqual([]);
    // Inside an address or a name is not a match (no paging through the directory by fragments).
    expect(
      MembersResponseSchema.parse((await members(lead.token, sp.id, `?search=${tag.slice(1)}`)).json()).nonMembers,
    ).toEqual([]);
    expect(
      MembersResponseSchema.parse((await members(lead.token, sp.id, '?search=school.example')).json()).nonMembers,
    ).toEqual([]);
    expect((await members(lead.token, sp.id, '?search=%20%20z%20')).json().nonMembers).toEqual([]);
    const found = MembersResponseSchema.parse(
      (await members(lead.token, sp.id, `?search=${tag.toUpperCase()}`)).json(),
    ).nonMembers;
    expect(found).toHaveLength(20);
    const ids = found.map((p) => p.id);
    expect(ids).not.toContain(matches[0]!.user.id);
    expect(ids).not.toContain(matches[1]!.user.id);
    expect(ids).not.toContain(blocked.user.id);
    expect(ids).not.toContain(lead.user.id);
    expect(found.filter((p) => !/^[^@]{1,2}…@/.test(p.email))).toEqual([]);
    const exact = MembersResponseSchema.parse(
      (await members(lead.token, sp.id, `?search=${encodeURIComponent(`${tag}-7@School.example`)}`)).json(),
    );
    expect(exact.nonMembers).toEqual([person(matches[7]!)]);
    const named = MembersResponseSchema.parse(
      (await members(lead.token, sp.id, `?search=${encodeURIComponent(`${tag} lovelace`)}`)).json(),
    );
    expect(named.nonMembers).toEqual([
      {
        ...person(byName),
        email: `${byName.user.email.slice(0, 2)}…${byName.user.email.slice(byName.user.email.indexOf('@'))}`,
      },
    ]);
    expect((await members(lead.token, sp.id, '?search=%25%25')).json().nonMembers).toEqual([]);
  });

  it('answers a bad query with 400', async () => {
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead);
    expect(await members(lead.token, sp.id, `?search=${'x'.repeat(255)}`)).toBeApiError(
      400,
      'search must be at most 254 characters.',
    );
    expect(await members(lead.token, sp.id, '?q=x')).toBeApiError(
      400,
      'Unknown field "q" in the query; it is not accepted.',
    );
  });
});

describe('POST /shared-portfolios/{id}/leave', () => {
  it('lets a member leave; afterwards the shared portfolio is hidden from them', async () => {
    const lead = await createLead(t);
    const member = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [member] });
    const res = await leave(member.token, sp.id);
    expect(res).toHaveStatus(200);
    expect(res.json().members).toEqual([person(lead)]);
    expect(await read(member.token, sp.id)).toBeApiError(404, 'Shared portfolio not found.');
    expect(await leave(member.token, sp.id, {})).toBeApiError(404, 'Shared portfolio not found.');
  });

  it('lets the owner leave only by naming a member as the new owner, with the original’s messages', async () => {
    const lead = await createLead(t);
    const member = await createTeacher(t);
    const outsider = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [member] });
    const before = await snapshot(t);
    expect(await leave(lead.token, sp.id, {})).toBeApiError(
      400,
      'You cannot leave this shared portfolio without assigning a new owner.',
    );
    expect(await leave(lead.token, sp.id)).toBeApiError(
      400,
      'You cannot leave this shared portfolio without assigning a new owner.',
    );
    expect(await leave(lead.token, sp.id, { newOwnerId: 2_000_000_000 })).toBeApiError(
      400,
      'New owner with ID 2000000000 does not exist.',
    );
    expect(await leave(lead.token, sp.id, { newOwnerId: outsider.user.id })).toBeApiError(
      400,
      `New owner ${outsider.user.username} is not a member of this shared portfolio.`,
    );
    expect(await leave(lead.token, sp.id, { newOwnerId: lead.user.id })).toBeApiError(
      400,
      `New owner ${lead.user.username} is not a member of this shared portfolio.`,
    );
    expect(await leave(lead.token, sp.id, { newOwnerId: String(member.user.id) })).toBeApiError(
      400,
      'newOwnerId must be a number.',
    );
    expect(await leave(lead.token, sp.id, { newOwnerId: member.user.id, owner: 1 })).toBeApiError(
      400,
      'Unknown field "owner"; it is not accepted.',
    );
    expect(await snapshot(t)).toEqual(before);

    const res = await leave(lead.token, sp.id, { newOwnerId: member.user.id });
    expect(res).toHaveStatus(200);
    expect(res.json()).toMatchObject({ owner: person(member), members: [person(member)] });
    expect(await members(member.token, sp.id)).toHaveStatus(200);
    expect(await members(lead.token, sp.id)).toBeApiError(404, 'Shared portfolio not found.');
  });
});

describe('POST /shared-portfolios/{id}/remove-user/{userId}', () => {
  it('lets the owner or a researcher remove a member, who then loses access', async () => {
    const lead = await createLead(t);
    const m1 = await createTeacher(t);
    const m2 = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [m1, m2] });
    const res = await removeUser(lead.token, sp.id, m1.user.id);
    expect(res).toHaveStatus(200);
    expect(res.json().members).toEqual([person(lead), person(m2)]);
    expect(await read(m1.token, sp.id)).toBeApiError(404, 'Shared portfolio not found.');
    expect((await removeUser((await createResearcher(t)).token, sp.id, m2.user.id)).json().members).toEqual([
      person(lead),
    ]);
  });

  it('never removes the owner, nor someone who is not a member', async () => {
    const lead = await createLead(t);
    const outsider = await createTeacher(t);
    const researcher = await createResearcher(t);
    const sp = await createSharedPortfolio(t, lead, { invitees: [outsider] });
    const before = await snapshot(t);
    expect(await removeUser(lead.token, sp.id, lead.user.id)).toBeApiError(
      400,
      'You cannot remove yourself. Please use the "leave" endpoint and assign a new owner.',
    );
    expect(await removeUser(researcher.token, sp.id, lead.user.id)).toBeApiError(
      400,
      'The owner cannot be removed. The owner can leave by naming a new owner.',
    );
    expect(await removeUser(lead.token, sp.id, outsider.user.id)).toBeApiError(
      400,
      'This person is not a member of this shared portfolio.',
    );
    expect(await removeUser(lead.token, sp.id, 'me')).toBeApiError(400, 'userId must be a positive whole number.');
    expect(await snapshot(t)).toEqual(before);
  });
});
