import { describe, expect, it } from 'vitest';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import {
  COMPLETE_RESPONSES,
  createArtifact,
  createComment,
  createLead,
  createPortfolio,
  createResearcher,
  createSharedPortfolio,
  createTeacher,
  snapshot,
  type TestUser,
} from '../../test/factories.ts';
import { multipart, pdfDocument } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { isStored } from '../../test/fixtures/media.ts';
import {
  securityKit,
  SHARED_ARTIFACT_NOT_FOUND,
  RESEARCHER_READ_ONLY,
  NOT_YOURS,
  HAS_ACTIVITY,
  nested,
  upload,
} from '../../test/fixtures/security.ts';

/**
 * The original's security weaknesses (reference-behaviour §12.3, §12.4) and the hardening findings,
 * write rights in shared portfolios and edit locks: one test per item proves that our server does
 * not have it, or names exactly how far the product protects against it.
 */
const t = await buildTestApp();
const { team } = securityKit(t);

describe('#16 write rights inside shared portfolios', () => {
  it('#16 write rights inside shared portfolios are bounded: only members and researchers write, an edit lock is exclusive, stale saves and discussed deletes are refused, others’ comments are untouchable, an unlink never deletes the author’s own file', async () => {
    const { lead, m1, m2, invitee, former, sp, sa1, file1 } = await team();
    const researcher = await createResearcher(t);
    const outsider = await createTeacher(t);
    const otherLead = await createLead(t);
    await createSharedPortfolio(t, otherLead, { members: [outsider] });
    const writes = (who: TestUser) => [
      t.api({
        method: 'PUT',
        url: `/shared-artifacts/${sa1.id}`,
        token: who.token,
        payload: { responses: { ...COMPLETE_RESPONSES, team1: 'Overwritten' } },
      }),
      t.api({
        method: 'PUT',
        url: `${nested(sp.id, sa1.id)}/responses`,
        token: who.token,
        payload: { responses: { team1: 'Overwritten' } },
      }),
      upload(t, who.token, `${nested(sp.id, sa1.id)}/documents`, multipart('file', 'x.pdf', pdfDocument())),
      t.api({ method: 'DELETE', url: `${nested(sp.id, sa1.id)}/documents/${file1}`, token: who.token }),
      t.api({ method: 'DELETE', url: `/shared-artifacts/${sa1.id}`, token: who.token }),
    ];
    let before = await snapshot(t);
    for (const who of [outsider, otherLead, invitee, former]) {
      for (const res of await Promise.all(writes(who))) expect(res).toBeApiError(404, SHARED_ARTIFACT_NOT_FOUND);
      expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/lock`, token: who.token })).toBeApiError(
        404,
        SHARED_ARTIFACT_NOT_FOUND,
      );
    }
    expect(await snapshot(t)).toEqual(before);

    // While its author edits, nobody else writes to the artifact (not even a researcher or the owner of the shared portfolio).
    const lock = await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/lock`, token: m1.token });
    expect(lock).toHaveStatus(200);
    before = await snapshot(t);
    for (const who of [m2, lead, researcher]) {
      for (const res of await Promise.all(writes(who)))
        expect(res).toBeApiError(423, /^This artifact is being edited by /);
    }
    expect(await snapshot(t)).toEqual(before);
    expect(
      await t.api({
        method: 'POST',
        url: `${nested(sp.id, sa1.id)}/unlock`,
        token: m1.token,
        payload: { lock: lock.json().lock },
      }),
    ).toHaveStatus(200);

    // A save based on an older version cannot silently overwrite a newer one.
    const saved = await t.api({
      method: 'PUT',
      url: `/shared-artifacts/${sa1.id}`,
      token: m1.token,
      payload: { responses: { ...COMPLETE_RESPONSES, team1: 'Author' }, updated_at: sa1.updated_at },
    });
    expect(saved).toHaveStatus(200);
    before = await snapshot(t);
    expect(
      await t.api({
        method: 'PUT',
        url: `/shared-artifacts/${sa1.id}`,
        token: m2.token,
        payload: { responses: COMPLETE_RESPONSES, updated_at: sa1.updated_at },
      }),
    ).toBeApiError(409, /^This artifact has recently been saved by someone else at /);
    expect(await snapshot(t)).toEqual(before);

    // Once discussed, a shared artifact cannot be deleted by anybody; a comment belongs to its author alone.
    const commentId = await createComment(t, sa1, m1, 'My own words');
    before = await snapshot(t);
    for (const who of [m1, m2, lead, researcher])
      expect(await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa1.id}`, token: who.token })).toBeApiError(
        400,
        HAS_ACTIVITY,
      );
    for (const who of [m2, lead, researcher]) {
      expect(
        await t.api({
          method: 'PUT',
          url: `/comments/${commentId}`,
          token: who.token,
          payload: { text: 'Not what I said' },
        }),
      ).toBeApiError(403, NOT_YOURS);
      expect(await t.api({ method: 'DELETE', url: `/comments/${commentId}`, token: who.token })).toBeApiError(
        403,
        NOT_YOURS,
      );
    }
    expect(await snapshot(t)).toEqual(before);

    // A member may unlink a file from a shared copy, but the author's own artifact keeps it, on disk and served.
    const portfolio = await createPortfolio(t, m1);
    const own = await createArtifact(t, portfolio, { parkingLot: false });
    const file = ArtifactMediaResponseSchema.parse(
      (
        await upload(
          t,
          m1.token,
          `/portfolios/${portfolio.id}/artifacts/${own.id}/documents`,
          multipart('file', 'plan.pdf', pdfDocument()),
        )
      ).json(),
    );
    const copy = await t.api({
      method: 'POST',
      url: `/artifacts/${own.id}/share`,
      token: m1.token,
      payload: { sharedPortfolioId: sp.id },
    });
    expect(copy).toHaveStatus(200);
    expect(
      await t.api({ method: 'DELETE', url: `${nested(sp.id, copy.json().id)}/documents/${file.id}`, token: m2.token }),
    ).toHaveStatus(200);
    expect(await isStored(t, file.url)).toBe(true);
    expect(
      (await t.api({ method: 'GET', url: `/artifacts/${own.id}`, token: m1.token }))
        .json()
        .documents.map((d: { id: number }) => d.id),
    ).toEqual([file.id]);
    expect(await t.app.inject({ method: 'GET', url: `/api/v1${file.url}` })).toHaveStatus(200);

    // Researchers never write teachers' personal work.
    before = await snapshot(t);
    expect(
      await t.api({
        method: 'PUT',
        url: `/artifacts/${own.id}`,
        token: researcher.token,
        payload: { responses: COMPLETE_RESPONSES },
      }),
    ).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${own.id}`, token: researcher.token })).toBeApiError(
      403,
      RESEARCHER_READ_ONLY,
    );
    expect(
      await t.api({
        method: 'PUT',
        url: `/portfolios/${portfolio.id}`,
        token: researcher.token,
        payload: { name: 'Renamed' },
      }),
    ).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(
      await upload(
        t,
        researcher.token,
        `/portfolios/${portfolio.id}/artifacts/${own.id}/documents`,
        multipart('file', 'x.pdf', pdfDocument()),
      ),
    ).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(
      await t.api({
        method: 'DELETE',
        url: `/portfolios/${portfolio.id}/artifacts/${own.id}/documents/${file.id}`,
        token: researcher.token,
      }),
    ).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('#23 an edit lock for good', () => {
  it('#23 nobody keeps a colleague out for good: renewals and re-locks count as one hold of at most an hour, then its holder waits a quarter of an hour while others may lock', async () => {
    const { m1, m2, sp, sa1 } = await team();
    const lockAs = (who: TestUser) => t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/lock`, token: who.token });
    const first = await lockAs(m1);
    expect(first).toHaveStatus(200);
    // 50 minutes of renewals later (simulated), a renewal ends at the hour, not 15 minutes on.
    await t.db.query(
      "UPDATE shared_artifacts SET lock_started_at = lock_started_at - interval '50 minutes' WHERE id = $1",
      [sa1.id],
    );
    const renewed = await lockAs(m1);
    expect(renewed).toHaveStatus(200);
    const minutesLeft = (Date.parse(renewed.json().lockedUntil) - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(9.5);
    expect(minutesLeft).toBeLessThanOrEqual(10);
    expect(await lockAs(m2)).toBeApiError(423, /^This artifact is being edited by /);
    // Releasing and locking again does not start a new hour.
    expect(
      await t.api({
        method: 'POST',
        url: `${nested(sp.id, sa1.id)}/unlock`,
        token: m1.token,
        payload: { lock: renewed.json().lock },
      }),
    ).toHaveStatus(200);
    await t.db.query(
      "UPDATE shared_artifacts SET lock_started_at = lock_started_at - interval '10 minutes' WHERE id = $1",
      [sa1.id],
    );
    expect(await lockAs(m1)).toBeApiError(
      423,
      /^You have kept this artifact locked for an hour, so others may edit it now\. You can lock it again after /,
    );
    // A colleague may lock it now; after that hold the first holder may lock again.
    const colleague = await lockAs(m2);
    expect(colleague).toHaveStatus(200);
    expect(
      await t.api({
        method: 'POST',
        url: `${nested(sp.id, sa1.id)}/unlock`,
        token: m2.token,
        payload: { lock: colleague.json().lock },
      }),
    ).toHaveStatus(200);
    expect(await lockAs(m1)).toHaveStatus(200);
  });
});
