import { describe, expect, it } from 'vitest';
import {
  attachMedia,
  COMPLETE_RESPONSES,
  createArtifact,
  createLead,
  createPortfolio,
  createResearcher,
  createSharedPortfolio,
  createTeacher,
  snapshot,
  teamQuestion,
} from '../../test/factories.ts';
import { multipart, pdfDocument } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import {
  securityKit,
  PORTFOLIO_NOT_FOUND,
  ARTIFACT_NOT_FOUND,
  SHARED_ARTIFACT_NOT_FOUND,
  FILE_NOT_FOUND,
  TEMPLATE_FIXED,
  RESEARCHER_READ_ONLY,
  nested,
  upload,
} from '../../test/fixtures/security.ts';

/**
 * The original's security weaknesses (reference-behaviour §12.3, §12.4) and the hardening findings,
 * access to objects: nested routes and the template portfolio: one test per item proves that our
 * server does not have it, or names exactly how far the product protects against it.
 */
const t = await buildTestApp();
const { team } = securityKit(t);

describe('#5 no IDOR on nested routes', () => {
  it('#5 no IDOR on nested routes: an artifact of someone else paired with the caller’s own portfolio is refused, changing nothing', async () => {
    const victim = await createTeacher(t);
    const attacker = await createTeacher(t);
    const theirPortfolio = await createPortfolio(t, victim);
    const theirArtifact = await createArtifact(t, theirPortfolio, { parkingLot: false });
    const theirFile = await attachMedia(t, 'artifact', theirArtifact.id);
    const myPortfolio = await createPortfolio(t, attacker);
    const myArtifact = await createArtifact(t, myPortfolio);
    const theirs = await team();
    const mine = await createSharedPortfolio(t, attacker, { questions: [teamQuestion('team1')] });
    const before = await snapshot(t);

    for (const portfolioId of [myPortfolio.id, 1]) {
      const base = `/portfolios/${portfolioId}/artifacts/${theirArtifact.id}`;
      expect(
        await t.api({
          method: 'PUT',
          url: `${base}/responses`,
          token: attacker.token,
          payload: { responses: { artifactName: 'Mine now' } },
        }),
      ).toBeApiError(404, ARTIFACT_NOT_FOUND);
      expect(
        await upload(t, attacker.token, `${base}/documents`, multipart('file', 'x.pdf', pdfDocument())),
      ).toBeApiError(404, ARTIFACT_NOT_FOUND);
      expect(
        await t.api({ method: 'DELETE', url: `${base}/documents/${theirFile}`, token: attacker.token }),
      ).toBeApiError(404, ARTIFACT_NOT_FOUND);
    }
    // Nor may the caller add artifacts to someone else's portfolio.
    expect(
      await t.api({
        method: 'POST',
        url: `/portfolios/${theirPortfolio.id}/artifacts/responses`,
        token: attacker.token,
        payload: {},
      }),
    ).toBeApiError(404, PORTFOLIO_NOT_FOUND);
    // The caller’s own artifact with someone else’s file id.
    expect(
      await t.api({
        method: 'DELETE',
        url: `/portfolios/${myPortfolio.id}/artifacts/${myArtifact.id}/documents/${theirFile}`,
        token: attacker.token,
      }),
    ).toBeApiError(404, FILE_NOT_FOUND);

    const base = nested(mine.id, theirs.sa1.id);
    const attempts = [
      t.api({
        method: 'PUT',
        url: `${base}/responses`,
        token: attacker.token,
        payload: { responses: { team1: 'Mine now' } },
      }),
      t.api({ method: 'GET', url: `${base}/gate-check?updated_at=1`, token: attacker.token }),
      t.api({ method: 'POST', url: `${base}/lock`, token: attacker.token }),
      t.api({ method: 'POST', url: `${base}/unlock`, token: attacker.token, payload: {} }),
      upload(t, attacker.token, `${base}/documents`, multipart('file', 'x.pdf', pdfDocument())),
      t.api({ method: 'DELETE', url: `${base}/documents/${theirs.file1}`, token: attacker.token }),
    ];
    for (const res of await Promise.all(attempts)) expect(res).toBeApiError(404, SHARED_ARTIFACT_NOT_FOUND);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('#6 template portfolio closed', () => {
  it('#6 template portfolio closed: everyone may read portfolio 1, nobody may change, delete or write under it', async () => {
    const people = [await createTeacher(t), await createLead(t), await createResearcher(t)];
    for (const who of people)
      expect(await t.api({ method: 'GET', url: '/portfolios/1', token: who.token })).toHaveStatus(200);
    // Even an artifact that somehow sat in the template (no route can put one there; it would have
    // no owner) is nobody's to write.
    const stray = await createArtifact(t, { id: 1 });
    const before = await snapshot(t);
    for (const who of people) {
      const researcher = who.user.role.type === 'researcher';
      expect(
        await t.api({ method: 'PUT', url: '/portfolios/1', token: who.token, payload: { name: 'Mine now' } }),
      ).toBeApiError(403, TEMPLATE_FIXED);
      expect(await t.api({ method: 'DELETE', url: '/portfolios/1', token: who.token })).toBeApiError(
        403,
        TEMPLATE_FIXED,
      );
      expect(
        await t.api({ method: 'POST', url: '/portfolios/1/artifacts/responses', token: who.token, payload: {} }),
      ).toBeApiError(403, TEMPLATE_FIXED);
      const [status, message] = researcher ? [403, RESEARCHER_READ_ONLY] : [404, ARTIFACT_NOT_FOUND];
      expect(
        await t.api({
          method: 'PUT',
          url: `/artifacts/${stray.id}`,
          token: who.token,
          payload: { responses: COMPLETE_RESPONSES },
        }),
      ).toBeApiError(status, message);
      expect(await t.api({ method: 'DELETE', url: `/artifacts/${stray.id}`, token: who.token })).toBeApiError(
        status,
        message,
      );
      expect(
        await t.api({
          method: 'PUT',
          url: `/portfolios/1/artifacts/${stray.id}/responses`,
          token: who.token,
          payload: { responses: COMPLETE_RESPONSES },
        }),
      ).toBeApiError(status, message);
      expect(
        await upload(
          t,
          who.token,
          `/portfolios/1/artifacts/${stray.id}/documents`,
          multipart('file', 'x.pdf', pdfDocument()),
        ),
      ).toBeApiError(status, message);
    }
    expect(await snapshot(t)).toEqual(before);
    await t.db.query('DELETE FROM artifacts WHERE id = $1', [stray.id]);
  });
});
