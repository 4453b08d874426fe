import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { MediaSchema } from '#schemas/media';
import { NoteListSchema, NoteSchema } from '#schemas/moments';
import { SharedArtifactDetailSchema, SharedArtifactMediaResponseSchema } from '#schemas/sharedArtifact';
import { SharedArtifactSchema } from '#schemas/sharedPortfolio';
import { attachMedia, attachVideo, countRows, createLead, createResearcher, createSharedPortfolio, createTeacher, createUser, snapshot } from '../../test/factories.ts';
import { multipartParts, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { momentKit } from '../../test/fixtures/moments.ts';

const t = await buildTestApp();
const { comment, team, personalVideo } = momentKit(t);

describe('private notes', () => {
  it('belong to the owner of the artifact: listed by video and time, changed and deleted', async () => {
    const { owner, artifact, video } = await personalVideo();
    const second = await attachVideo(t, 'artifact', artifact.id, 30);
    const add = (payload: unknown) => t.api({ method: 'POST', url: `/artifacts/${artifact.id}/notes`, token: owner.token, payload: payload as object });
    const late = NoteSchema.parse((await add({ media: video, start: 8, text: 'Ask for evidence here.' })).json());
    const early = NoteSchema.parse((await add({ media: video, start: 1.5, end: 4, text: 'Good hook.' })).json());
    const other = NoteSchema.parse((await add({ media: second, start: 0, end: null, text: 'Exit ticket.' })).json());
    expect(early).toMatchObject({ artifact: artifact.id, media: video, start: 1.5, end: 4, text: 'Good hook.' });
    const list = NoteListSchema.parse((await t.api({ method: 'GET', url: `/artifacts/${artifact.id}/notes`, token: owner.token })).json());
    expect(list.map((n) => n.id)).toEqual([early.id, late.id, other.id]);

    const patch = (id: number, payload: unknown, token = owner.token) => t.api({ method: 'PATCH', url: `/artifact-notes/${id}`, token, payload: payload as object });
    expect(NoteSchema.parse((await patch(late.id, { text: 'Ask for evidence.', start: 7, end: 9 })).json())).toMatchObject({ text: 'Ask for evidence.', start: 7, end: 9 });
    expect(NoteSchema.parse((await patch(late.id, { end: null })).json())).toMatchObject({ start: 7, end: null });
    const before = await snapshot(t);
    expect(await patch(late.id, { start: 11 })).toBeApiError(400, 'The moment is past the end of the video (0:10).');
    expect(await patch(early.id, { start: 5 })).toBeApiError(400, 'The end of a moment cannot be before its start.');
    expect(await patch(late.id, {})).toBeApiError(400, 'Nothing to change.');
    expect(await patch(late.id, { text: '  ' })).toBeApiError(400, 'Please enter a note.');
    expect(await patch(late.id, { media: second })).toBeApiError(400, /Unknown field "media"/);
    expect(await add({ media: video, start: 1 })).toBeApiError(400, 'Please enter a note.');
    expect(await add({ media: video, start: 1, text: 'x'.repeat(2501) })).toBeApiError(400, 'A note can be at most 2500 characters.');
    expect(await snapshot(t)).toEqual(before);
    expect(NoteSchema.parse((await t.api({ method: 'DELETE', url: `/artifact-notes/${other.id}`, token: owner.token })).json()).id).toBe(other.id);
    expect(await countRows(t, `artifact_notes WHERE artifact_id = ${artifact.id}`)).toBe(2);
  });

  it('are invisible to everyone else, researchers included, and nobody else can add, change or delete them', async () => {
    const { owner, artifact, video } = await personalVideo();
    const note = NoteSchema.parse((await t.api({ method: 'POST', url: `/artifacts/${artifact.id}/notes`, token: owner.token, payload: { media: video, start: 1, text: 'Mine.' } })).json());
    const researcher = await createResearcher(t);
    const teacher = await createTeacher(t);
    const lead = await createLead(t);
    const blocked = await createUser(t, { blocked: true });
    // Researchers read the artifact itself, never its notes.
    expect(await t.api({ method: 'GET', url: `/artifacts/${artifact.id}`, token: researcher.token })).toHaveStatus(200);
    const before = await snapshot(t);
    for (const who of [researcher, teacher, lead]) {
      expect(await t.api({ method: 'GET', url: `/artifacts/${artifact.id}/notes`, token: who.token })).toBeApiError(404, 'Artifact not found.');
      expect(await t.api({ method: 'PATCH', url: `/artifact-notes/${note.id}`, token: who.token, payload: { text: 'Hacked' } })).toBeApiError(404, 'Note not found.');
      expect(await t.api({ method: 'DELETE', url: `/artifact-notes/${note.id}`, token: who.token })).toBeApiError(404, 'Note not found.');
    }
    expect(await t.api({ method: 'POST', url: `/artifacts/${artifact.id}/notes`, token: researcher.token, payload: { media: video, start: 1, text: 'R' } })).toBeApiError(
      403,
      'Researchers can read teacher portfolios but not change them.',
    );
    expect(await t.api({ method: 'POST', url: `/artifacts/${artifact.id}/notes`, token: teacher.token, payload: { media: video, start: 1, text: 'T' } })).toBeApiError(404, 'Artifact not found.');
    expect(await t.api({ method: 'GET', url: `/artifacts/${artifact.id}/notes`, token: blocked.token })).toBeApiError(401);
    expect(await t.api({ method: 'GET', url: `/artifacts/${artifact.id}/notes` })).toBeApiError(401);
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuse a moment on a file of another artifact or on an image', async () => {
    const { owner, artifact } = await personalVideo();
    const image = await attachMedia(t, 'artifact', artifact.id, 'image');
    const elsewhere = await personalVideo();
    const before = await snapshot(t);
    const add = (payload: unknown) => t.api({ method: 'POST', url: `/artifacts/${artifact.id}/notes`, token: owner.token, payload: payload as object });
    expect(await add({ media: image, start: 0, text: 'x' })).toBeApiError(400, /only on a video/);
    expect(await add({ media: elsewhere.video, start: 0, text: 'x' })).toBeApiError(400, 'This video is not part of this artifact.');
    expect(await snapshot(t)).toEqual(before);
  });

  it('become the teacher’s moment comments on the shared copy only when asked, and go when their video is removed', async () => {
    const { owner, portfolio, artifact, video } = await personalVideo();
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead, { members: [owner] });
    const add = (payload: unknown) => t.api({ method: 'POST', url: `/artifacts/${artifact.id}/notes`, token: owner.token, payload: payload as object });
    await add({ media: video, start: 6, text: 'Second thought.' });
    await add({ media: video, start: 2, end: 3, text: 'First thought.' });
    const share = (payload: unknown) => t.api({ method: 'POST', url: `/artifacts/${artifact.id}/share`, token: owner.token, payload: payload as object });
    const plain = (await share({ sharedPortfolioId: sp.id })).json<{ id: number }>();
    const plainDetail = SharedArtifactDetailSchema.parse((await t.api({ method: 'GET', url: `/shared-artifacts/${plain.id}`, token: owner.token })).json());
    expect(plainDetail.comments).toEqual([]);
    const withNotes = (await share({ sharedPortfolioId: sp.id, includeNotes: true })).json<{ id: number }>();
    const detail = SharedArtifactDetailSchema.parse((await t.api({ method: 'GET', url: `/shared-artifacts/${withNotes.id}`, token: lead.token })).json());
    expect(detail.comments.map((c) => ({ text: c.text, owner: c.owner.id, moment: c.moment }))).toEqual([
      { text: 'First thought.', owner: owner.user.id, moment: { media: video, start: 2, end: 3 } },
      { text: 'Second thought.', owner: owner.user.id, moment: { media: video, start: 6, end: null } },
    ]);
    expect(await share({ sharedPortfolioId: sp.id, includeNotes: 'yes' })).toBeApiError(400, 'includeNotes must be true or false.');

    const removed = await t.api({ method: 'DELETE', url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/videos/${video}`, token: owner.token });
    expect(removed).toHaveStatus(200);
    expect(await countRows(t, `artifact_notes WHERE artifact_id = ${artifact.id}`)).toBe(0);
  });
});

describe('alt text and description', () => {
  it('are set per file by the artifact’s owner, shown with the file, and carried to a shared copy', async () => {
    const { owner, artifact } = await personalVideo();
    const image = await attachMedia(t, 'artifact', artifact.id, 'image');
    const patch = (token: string, payload: unknown) => t.api({ method: 'PATCH', url: `/artifacts/${artifact.id}/media/${image}`, token, payload: payload as object });
    const media = MediaSchema.parse((await patch(owner.token, { alt: '  A ramp with three toy cars  ', description: 'Setup before the race.' })).json());
    expect(media).toMatchObject({ id: image, alt: 'A ramp with three toy cars', description: 'Setup before the race.', duration: null });
    expect(MediaSchema.parse((await patch(owner.token, { description: '' })).json())).toMatchObject({ alt: 'A ramp with three toy cars', description: '' });
    const researcher = await createResearcher(t);
    const teacher = await createTeacher(t);
    const elsewhere = await attachMedia(t, 'artifact', (await personalVideo()).artifact.id, 'image');
    const before = await snapshot(t);
    expect(await patch(owner.token, {})).toBeApiError(400, 'Nothing to change.');
    expect(await patch(owner.token, { alt: 'x'.repeat(1001) })).toBeApiError(400, 'Alt text can be at most 1000 characters.');
    expect(await patch(owner.token, { alt: 'x', caption: 'B' })).toBeApiError(400, /Unknown field "caption"/);
    expect(await patch(researcher.token, { alt: 'x' })).toBeApiError(403, 'Researchers can read teacher portfolios but not change them.');
    expect(await patch(teacher.token, { alt: 'x' })).toBeApiError(404, 'Artifact not found.');
    expect(await t.api({ method: 'PATCH', url: `/artifacts/${artifact.id}/media/${elsewhere}`, token: owner.token, payload: { alt: 'x' } })).toBeApiError(404, 'This file is not part of this artifact.');
    expect(await snapshot(t)).toEqual(before);

    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead, { members: [owner] });
    const copy = (await t.api({ method: 'POST', url: `/artifacts/${artifact.id}/share`, token: owner.token, payload: { sharedPortfolioId: sp.id } })).json<{ id: number }>();
    const detail = SharedArtifactDetailSchema.parse((await t.api({ method: 'GET', url: `/shared-artifacts/${copy.id}`, token: lead.token })).json());
    expect(detail.images[0]).toMatchObject({ id: image, alt: 'A ramp with three toy cars', description: '' });
    expect(detail.videos[0]).toMatchObject({ alt: '', description: '', duration: 10 });

    // In the shared copy, its own text: members (the lead) change it; the personal artifact keeps its own.
    const shared = await t.api({ method: 'PATCH', url: `/shared-artifacts/${copy.id}/media/${image}`, token: lead.token, payload: { alt: 'Three toy cars on a ramp' } });
    expect(MediaSchema.parse(shared.json()).alt).toBe('Three toy cars on a ramp');
    const mine = (await t.api({ method: 'GET', url: `/artifacts/${artifact.id}`, token: owner.token })).json<{ images: { alt: string }[] }>();
    expect(mine.images[0]!.alt).toBe('A ramp with three toy cars');
    const again = SharedArtifactSchema.parse((await t.api({ method: 'POST', url: `/shared-artifacts/${copy.id}/share`, token: lead.token, payload: { sharedPortfolioId: sp.id } })).json());
    expect(again.images[0]!.alt).toBe('Three toy cars on a ramp');
  });

  it('on a shared artifact: members and researchers, not invitees or outsiders', async () => {
    const { sp, invitee, member, sa, image } = await team();
    const patch = (token: string) => t.api({ method: 'PATCH', url: `/shared-artifacts/${sa.id}/media/${image}`, token, payload: { alt: 'Anchor chart' } });
    const outsider = await createTeacher(t);
    const before = await snapshot(t);
    expect(await patch(invitee.token)).toBeApiError(404, 'Shared artifact not found.');
    expect(await patch(outsider.token)).toBeApiError(404, 'Shared artifact not found.');
    expect(await snapshot(t)).toEqual(before);
    expect(await patch((await createResearcher(t)).token)).toHaveStatus(200);
    expect(await patch(member.token)).toHaveStatus(200);
    const upload = await t.api({
      method: 'POST',
      url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa.id}/images`,
      token: member.token,
      ...multipartParts([
        { field: 'description', value: 'Our anchor chart' },
        { field: 'file', filename: 'chart.png', content: await pngImage(60, 40), contentType: 'image/png' },
      ]),
    });
    expect(SharedArtifactMediaResponseSchema.parse(upload.json())).toMatchObject({ alt: '', description: 'Our anchor chart' });
  });
});

describe('exports of moment comments', () => {
  it('give a video’s moment comments as CSV (formulas neutralised) and as WebVTT cues', async () => {
    const { lead, member, invitee, sa, video } = await team();
    await t.db.query('UPDATE media_files SET duration = 120 WHERE id = $1', [video]);
    await comment(member.token, { text: '=HYPERLINK("http://evil")', sharedArtifact: sa.id, moment: { media: video, start: 65.5, end: 70 } });
    await comment(lead.token, { text: 'Nice <b>wait</b> time & pacing', sharedArtifact: sa.id, moment: { media: video, start: 3 } });
    await comment(lead.token, { text: 'Whole artifact, not exported.', sharedArtifact: sa.id });
    await comment(lead.token, { text: 'Near the end.', sharedArtifact: sa.id, moment: { media: video, start: 118 } });

    const csv = await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}/media/${video}/moments.csv`, token: invitee.token });
    expect(csv).toHaveStatus(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename=".*moments\.csv"/);
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r['author'], r['start (seconds)'], r['start'], r['end (seconds)'], r['end'], r['text']])).toEqual([
      [lead.user.username, '3', '00:00:03.000', '', '', 'Nice <b>wait</b> time & pacing'],
      [member.user.username, '65.5', '00:01:05.500', '70', '00:01:10.000', `'=HYPERLINK("http://evil")`],
      [lead.user.username, '118', '00:01:58.000', '', '', 'Near the end.'],
    ]);
    expect(rows[0]!['created_at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Number(rows[0]!['comment id'])).toBeGreaterThan(0);

    const vtt = await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}/media/${video}/moments.vtt`, token: member.token });
    expect(vtt).toHaveStatus(200);
    expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    const cues = vtt.body.split('\n\n');
    expect(cues[0]).toMatch(/^WEBVTT - Comments on /);
    expect(cues.slice(1)).toEqual([
      `00:00:03.000 --> 00:00:07.000\n<v ${lead.user.username}>Nice &lt;b&gt;wait&lt;/b&gt; time &amp; pacing`,
      `00:01:05.500 --> 00:01:10.000\n<v ${member.user.username}>=HYPERLINK("http://evil")`,
      `00:01:58.000 --> 00:02:02.000\n<v ${lead.user.username}>Near the end.\n`,
    ]);
  });

  it('are read as comments are: not by outsiders or blocked accounts; only videos of that artifact', async () => {
    const { sa, video, image, member } = await team();
    const outsider = await createTeacher(t);
    const blocked = await createUser(t, { blocked: true });
    const researcher = await createResearcher(t);
    for (const ext of ['csv', 'vtt']) {
      const url = `/shared-artifacts/${sa.id}/media/${video}/moments.${ext}`;
      expect(await t.api({ method: 'GET', url, token: outsider.token })).toBeApiError(404, 'Shared artifact not found.');
      expect(await t.api({ method: 'GET', url, token: blocked.token })).toBeApiError(401);
      expect(await t.api({ method: 'GET', url, token: researcher.token })).toHaveStatus(200);
      expect(await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}/media/${image}/moments.${ext}`, token: member.token })).toBeApiError(400, /only on a video/);
      expect(await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}/media/${(await team()).video}/moments.${ext}`, token: member.token })).toBeApiError(404, 'File not found.');
    }
  });
});
