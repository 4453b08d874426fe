import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveDataSchema } from '#schemas/archive';
import { archiveKit } from '../../test/archiveKit.ts';
import {
  COMPLETE_RESPONSES,
  createArtifact,
  createLead,
  createPortfolio,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  teamQuestion,
} from '../../test/factories.ts';
import { multipart, pngImage } from '../../test/files.ts';
import { asWeb } from '../../test/fixtures/versions.ts';

// The history of each artifact in a teacher's archive (what else the archive holds: archiveRoutes.test.ts).
const { t, ask, settled, unzip } = await archiveKit();

describe("the archive's histories", () => {
  it('holds every version of each artifact and shared artifact in data.json, and lists them on its page', async () => {
    const tess = await createTeacher(t);
    const lee = await createLead(t);
    const portfolio = await createPortfolio(t, tess);
    const artifact = await createArtifact(t, portfolio, { parkingLot: false });
    const base = `/portfolios/${portfolio.id}/artifacts/${artifact.id}`;
    const put = (responses: Record<string, unknown>) =>
      asWeb(t, tess.token, { method: 'PUT', url: `/artifacts/${artifact.id}`, payload: { responses } });
    expect((await put({ ...COMPLETE_RESPONSES, studentThinking: 'Slopes <b>matter</b>.' })).statusCode).toBe(200);
    const image = await t.api({
      method: 'POST',
      url: `${base}/images`,
      token: tess.token,
      ...multipart('file', 'a.png', await pngImage(20, 20)),
    });
    expect(image).toHaveStatus(200);
    const imageId = (image.json() as { id: number }).id;
    expect((await put({ ...COMPLETE_RESPONSES, unitDay: 3 })).statusCode).toBe(200);
    expect(
      await asWeb(t, tess.token, { method: 'POST', url: `/artifacts/${artifact.id}/versions/1/restore`, payload: {} }),
    ).toHaveStatus(200);

    const sp = await createSharedPortfolio(t, lee, { members: [tess], questions: [teamQuestion('t1')] });
    const shared = await createSharedArtifact(t, sp, tess, { responses: COMPLETE_RESPONSES });
    const stored = await t.api({ method: 'GET', url: `/shared-artifacts/${shared.id}`, token: lee.token });
    const leads = await asWeb(t, lee.token, {
      method: 'PUT',
      url: `/shared-artifacts/${shared.id}`,
      payload: { responses: { ...COMPLETE_RESPONSES, t1: 'Fourth grade' }, updated_at: stored.json().updated_at },
    });
    expect(leads).toHaveStatus(200);

    const job = await ask(tess);
    expect((await settled(tess, job.id)).status).toBe('ready');
    const site = unzip(
      (await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: tess.token })).rawPayload,
    );
    const data = ArchiveDataSchema.parse(JSON.parse(readFileSync(path.join(site, 'data.json'), 'utf8')));
    const history = data.portfolios[0]!.artifacts[0]!.history;
    expect(history.map((v) => [v.number, v.client, v.author, v.restoredFrom])).toEqual([
      [1, 'web', tess.user.username, null],
      [2, 'mobile', tess.user.username, null],
      [3, 'web', tess.user.username, null],
      [4, 'restore', tess.user.username, 1],
    ]);
    expect(history[0]!.changes).toEqual([
      { key: 'artifactName', question: 'Artifact Name', answer: 'Ramp race' },
      { key: 'learningGoal', question: expect.any(String), answer: COMPLETE_RESPONSES['learningGoal'] },
      { key: 'studentThinking', question: expect.any(String), answer: 'Slopes <b>matter</b>.' },
    ]);
    expect(history[1]).toMatchObject({ changes: [], filesAdded: [imageId], filesRemoved: [] });
    expect(history[2]!.changes.map((c) => [c.key, c.answer])).toEqual([
      ['studentThinking', null],
      ['unitDay', 3],
    ]);
    // The restore brought version 1 back: its answers and its files (none).
    expect(history[3]).toMatchObject({ filesAdded: [], filesRemoved: [imageId] });
    expect(history[3]!.changes.map((c) => [c.key, c.answer])).toEqual([
      ['studentThinking', 'Slopes <b>matter</b>.'],
      ['unitDay', null],
    ]);
    // The shared artifact's history names who saved each version.
    expect(data.sharedArtifacts[0]!.history.map((v) => [v.number, v.author, v.changes.length])).toEqual([
      [1, lee.user.username, 3],
    ]);

    const page = readFileSync(path.join(site, `artifact-${artifact.id}.html`), 'utf8');
    expect(page).toContain('<h2>History</h2>');
    expect(page).toMatch(/<tr><td>4<\/td>.*Restored version 1: .*1 removed<\/td><\/tr>/);
    expect(page).toMatch(/<tr><td>2<\/td>.*the mobile app<\/td><td>1 file added<\/td><\/tr>/);
    expect(page).not.toContain('<b>matter</b>');
    const sharedPage = readFileSync(path.join(site, `shared-artifact-${shared.id}.html`), 'utf8');
    expect(sharedPage).toContain(`<td>${lee.user.username}</td>`);
    expect(readFileSync(path.join(site, 'README.txt'), 'utf8')).toContain('"history": [');
  });
});
