import { describe, expect, it } from 'vitest';
import { GateCheckResponseSchema } from '#schemas/sharedArtifact';
import { SharedArtifactSchema } from '#schemas/sharedPortfolio';
import {
  attachMedia,
  COMPLETE_RESPONSES,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  snapshot,
} from '../../test/factories.ts';
import { multipart, pdfDocument } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import {
  INVALID_UPDATED_AT,
  nested,
  NOT_FOUND,
  NOT_SEEN,
  savedBySomeoneElse,
  sharedArtifactKit,
} from '../../test/fixtures/sharedArtifacts.ts';

const t = await buildTestApp();
const { put, read, gate, acknowledge, team } = sharedArtifactKit(t);

describe('gate check', () => {
  it('answers ok for the stored version (ISO or milliseconds), conflict for an older one, error for a missing or bad value', async () => {
    const { member, sp, sa } = await team();
    const ok = GateCheckResponseSchema.parse(
      (await gate(member.token, sp.id, sa.id, `?updated_at=${encodeURIComponent(sa.updated_at)}`)).json(),
    );
    expect(ok).toEqual({ type: 'ok', message: 'Shared artifact can be safely saved.', updated_at: sa.updated_at });
    const ms = Date.parse(sa.updated_at);
    expect((await gate(member.token, sp.id, sa.id, `?updated_at=${ms}`)).json().type).toBe('ok');
    expect((await gate(member.token, sp.id, sa.id, `?updated_at=${ms + 60_000}`)).json().type).toBe('ok');
    const older = (await gate(member.token, sp.id, sa.id, `?updated_at=${ms - 1}`)).json();
    // Never saved since it was made: who saved it is not known.
    expect(older).toEqual({
      type: 'warning',
      message: savedBySomeoneElse(sa.updated_at),
      updated_at: sa.updated_at,
      saved_by: null,
    });
    expect(
      (
        await gate(member.token, sp.id, sa.id, `?updated_at=${encodeURIComponent(new Date(ms - 1000).toISOString())}`)
      ).json().type,
    ).toBe('warning');
    for (const query of [
      '',
      '?updated_at=',
      '?updated_at=yesterday',
      '?updated_at=2024-13-45',
      `?updated_at=${'9'.repeat(20)}`,
    ]) {
      const res = await gate(member.token, sp.id, sa.id, query);
      expect(res).toHaveStatus(200);
      expect(res.json()).toEqual({ type: 'error', message: INVALID_UPDATED_AT });
    }
    expect(await gate(member.token, sp.id, sa.id, `?updated_at=${'1'.repeat(65)}`)).toBeApiError(
      400,
      'updated_at must be at most 64 characters.',
    );
  });
});

describe('PUT /shared-artifacts/{id}', () => {
  it('saves with the version the editor saw; a stale version answers 409 and changes nothing', async () => {
    const { lead, member, sa } = await team();
    const first = await put(lead.token, sa.id, {
      responses: { ...COMPLETE_RESPONSES, team1: 'Lead' },
      updated_at: sa.updated_at,
      id: sa.id,
    });
    expect(first).toHaveStatus(200);
    const saved = SharedArtifactSchema.parse(first.json());
    expect(saved.responses.team1).toBe('Lead');
    expect(Date.parse(saved.updated_at)).toBeGreaterThan(Date.parse(sa.updated_at));

    const before = await snapshot(t);
    expect(
      await put(member.token, sa.id, {
        responses: { ...COMPLETE_RESPONSES, team1: 'Member' },
        updated_at: sa.updated_at,
      }),
    ).toBeApiError(409, savedBySomeoneElse(saved.updated_at));
    expect(
      await put(member.token, sa.id, { responses: COMPLETE_RESPONSES, updated_at: String(Date.parse(sa.updated_at)) }),
    ).toBeApiError(409);
    expect(await snapshot(t)).toEqual(before);

    // With the version the gate check returned (overwrite on purpose).
    const overwrite = await put(member.token, sa.id, {
      responses: { ...COMPLETE_RESPONSES, team1: 'Member' },
      updated_at: saved.updated_at,
    });
    expect(overwrite).toHaveStatus(200);
  });

  it('GET tells the newest version number (read after the answers); the web merges from it and saves against the stored version', async () => {
    const { lead, member, sa } = await team();
    // Made without a save (no version yet), then saved once: version 1.
    expect((await read(member.token, sa.id)).version).toBe(0);
    const first = { responses: { ...COMPLETE_RESPONSES, team1: 'First answer' }, updated_at: sa.updated_at };
    expect(await put(member.token, sa.id, first)).toHaveStatus(200);
    const loaded = await read(member.token, sa.id);
    expect(loaded.version).toBe(1);
    // The lead saves in between; the member's save based on version 1 is refused, as before.
    const leads = { ...COMPLETE_RESPONSES, team1: 'Lead' };
    expect(await put(lead.token, sa.id, { responses: leads, updated_at: loaded.updated_at })).toHaveStatus(200);
    const mine = { ...COMPLETE_RESPONSES, team1: 'First answer', learningGoal: 'Mine' };
    expect(await put(member.token, sa.id, { responses: mine, updated_at: loaded.updated_at })).toBeApiError(409);
    // What the merge reads: the stored version and its number, the base and the newest version's answers.
    const stored = await read(member.token, sa.id);
    expect(stored.version).toBe(2);
    const version = async (n: number) =>
      (await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}/versions/${n}`, token: member.token })).json();
    expect((await version(1)).responses.team1).toBe('First answer');
    expect((await version(2)).responses).toEqual(stored.responses);
    const merged = { ...mine, team1: 'Lead' };
    expect(await put(member.token, sa.id, { responses: merged, updated_at: stored.updated_at })).toHaveStatus(200);
    const after = await read(member.token, sa.id);
    expect(after.version).toBe(3);
    expect(after.responses).toMatchObject({ team1: 'Lead', learningGoal: 'Mine' });
  });

  it('without updated_at (the mobile app), saves only over the version its user last read or acknowledged at a gate check', async () => {
    const { lead, member, sp, sa } = await team();
    const before = await snapshot(t);
    // Never checked: nothing is known of what the lead has seen.
    expect(await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Blind' } })).toBeApiError(
      409,
      NOT_SEEN,
    );
    expect(await snapshot(t)).toEqual(before);
    // The app's flow: gate check with the local copy's version (ok), then the save without a version.
    expect((await gate(lead.token, sp.id, sa.id, `?updated_at=${Date.parse(sa.updated_at)}`)).json().type).toBe('ok');
    const first = await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Lead' } });
    expect(first).toHaveStatus(200);
    // Its own save counts as seen: the lead may save again.
    const second = await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Lead 2' } });
    expect(second).toHaveStatus(200);
    // The member saves on the web; the lead's next blind save would overwrite unseen work: 409.
    const member1 = await put(member.token, sa.id, {
      responses: { ...COMPLETE_RESPONSES, team1: 'Member' },
      updated_at: second.json().updated_at,
    });
    expect(member1).toHaveStatus(200);
    const afterMember = await snapshot(t);
    expect(await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Lead 3' } })).toBeApiError(
      409,
      savedBySomeoneElse(member1.json().updated_at),
    );
    expect(await snapshot(t)).toEqual(afterMember);
    // The gate check warns; continuing (the app's "save anyway") acknowledges the member's version.
    const warned = (await gate(lead.token, sp.id, sa.id, `?updated_at=${Date.parse(second.json().updated_at)}`)).json();
    // It names who saved the newer version (the web's Edit Conflict dialog says it).
    expect(GateCheckResponseSchema.parse(warned)).toMatchObject({
      type: 'warning',
      updated_at: member1.json().updated_at,
      saved_by: { id: member.user.id, username: member.user.username },
    });
    const overwrite = await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Lead 3' } });
    expect(overwrite).toHaveStatus(200);
    expect(overwrite.json().responses.team1).toBe('Lead 3');
    // Another member's acknowledgement is theirs alone.
    expect(await put(member.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Member 2' } })).toBeApiError(
      409,
    );
  });

  it('of 20 simultaneous saves of one version, exactly one wins; the stored answers are the winner’s', async () => {
    const { lead, member, sa } = await team();
    const researcher = await createResearcher(t);
    const editors = [lead, member, researcher];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        put(editors[i % 3]!.token, sa.id, {
          responses: { ...COMPLETE_RESPONSES, team1: `Version ${i}` },
          updated_at: sa.updated_at,
        }),
      ),
    );
    const winners = results.flatMap((r, i) => (r.statusCode === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    const losers = results.filter((_, i) => i !== winners[0]);
    expect(losers).toHaveLength(19);
    for (const r of losers) expect(r).toBeApiError(409);
    expect((await read(lead.token, sa.id)).responses.team1).toBe(`Version ${winners[0]}`);
  });

  it('checks the answers against the artifact’s questions (core ones required) and refuses fields it does not take', async () => {
    const { lead, member, sa } = await team();
    const elsewhere = await createSharedPortfolio(t, lead);
    const before = await snapshot(t);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ responses: { team1: 'Only this' } }, 400, 'Field Artifact Name is required.'],
      [{ responses: { ...COMPLETE_RESPONSES, unitDay: 1.5 } }, 400, 'Field Day of the unit must be an integer.'],
      [{ responses: { ...COMPLETE_RESPONSES, unitDay: 250 } }, 400, 'Field Day of the unit must be between 0 and 200.'],
      [
        { responses: { ...COMPLETE_RESPONSES, nextSteps: 'not asked here' } },
        400,
        'There is no question "nextSteps" in this artifact.',
      ],
      [{ responses: COMPLETE_RESPONSES, updated_at: 'last week' }, 400, INVALID_UPDATED_AT],
      [
        { responses: COMPLETE_RESPONSES, sharedPortfolio: elsewhere.id },
        400,
        'Unknown field "sharedPortfolio"; it is not accepted.',
      ],
      [{ responses: COMPLETE_RESPONSES, owner: lead.user.id }, 400, 'Unknown field "owner"; it is not accepted.'],
      [{ responses: COMPLETE_RESPONSES, structure: [] }, 400, 'Unknown field "structure"; it is not accepted.'],
      [{ responses: COMPLETE_RESPONSES, id: sa.id + 1 }, 400, 'The id in the body does not match the address.'],
      [{}, 400, 'responses is required.'],
    ];
    for (const [payload, status, message] of cases)
      expect(await put(member.token, sa.id, payload)).toBeApiError(status, message);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('PUT /shared-portfolios/{id}/shared-artifacts/{artifactId}/responses (mobile merge)', () => {
  it('merges answers (null deletes a key) and refuses a stale version with 409', async () => {
    const { member, sp, sa } = await team();
    await acknowledge(member, sp.id, sa.id);
    const res = await t.api({
      method: 'PUT',
      url: `${nested(sp.id, sa.id)}/responses`,
      token: member.token,
      payload: { responses: { team1: null, unitDay: 5 } },
    });
    expect(res).toHaveStatus(200);
    expect(res.json().responses).toEqual({ ...COMPLETE_RESPONSES, unitDay: 5 });
    const stale = await t.api({
      method: 'PUT',
      url: `${nested(sp.id, sa.id)}/responses`,
      token: member.token,
      payload: { responses: { unitDay: 6 }, updated_at: sa.updated_at },
    });
    expect(stale).toBeApiError(409, savedBySomeoneElse(res.json().updated_at));
    const core = await t.api({
      method: 'PUT',
      url: `${nested(sp.id, sa.id)}/responses`,
      token: member.token,
      payload: { responses: { artifactName: null } },
    });
    expect(core).toBeApiError(400, 'Field Artifact Name is required.');
  });

  it('answers 404 for an artifact of another shared portfolio on every nested route (no IDOR), changing nothing', async () => {
    const mine = await team();
    const theirs = await team();
    const alsoMine = await createSharedPortfolio(t, mine.lead, { members: [mine.member] });
    const inOtherOfMine = await createSharedArtifact(t, alsoMine, mine.member);
    const fileId = await attachMedia(t, 'sharedArtifact', theirs.sa.id);
    const before = await snapshot(t);
    for (const target of [theirs.sa.id, inOtherOfMine.id]) {
      const base = nested(mine.sp.id, target);
      const calls = [
        t.api({
          method: 'PUT',
          url: `${base}/responses`,
          token: mine.member.token,
          payload: { responses: { team1: 'x' } },
        }),
        t.api({ method: 'GET', url: `${base}/gate-check?updated_at=1`, token: mine.member.token }),
        t.api({ method: 'POST', url: `${base}/lock`, token: mine.member.token }),
        t.api({ method: 'POST', url: `${base}/unlock`, token: mine.member.token, payload: {} }),
        t.api({
          method: 'POST',
          url: `${base}/documents`,
          token: mine.member.token,
          ...multipart('file', 'x.pdf', pdfDocument()),
        }),
        t.api({ method: 'DELETE', url: `${base}/documents/${fileId}`, token: mine.member.token }),
      ];
      for (const res of await Promise.all(calls)) expect(res).toBeApiError(404, NOT_FOUND);
    }
    expect(
      await t.api({
        method: 'DELETE',
        url: `${nested(mine.sp.id, mine.sa.id)}/documents/${fileId}`,
        token: mine.member.token,
      }),
    ).toBeApiError(404, 'File not found.');
    expect(await snapshot(t)).toEqual(before);
  });
});
