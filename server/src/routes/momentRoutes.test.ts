import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import { MediaSchema } from '#schemas/media';
import { CaptionTrackListSchema, CaptionTrackSchema, CaptionUploadResponseSchema, NoteListSchema, NoteSchema } from '#schemas/moments';
import { CommentResponseSchema, ReactionSchema, SharedArtifactDetailSchema, SharedArtifactMediaResponseSchema } from '#schemas/sharedArtifact';
import { CommentSchema } from '#schemas/sharedArtifact';
import { SharedArtifactSchema } from '#schemas/sharedPortfolio';
import { NotificationListResponseSchema } from '#schemas/notifications';
import {
  attachMedia,
  attachVideo,
  countRows,
  createArtifact,
  createInvitation,
  createLead,
  createPortfolio,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  createUser,
  snapshot,
} from '../../test/factories.ts';
import { ffmpegVideo, multipartParts, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp();

const comment = (token: string, payload: unknown) => t.api({ method: 'POST', url: '/comments', token, payload: payload as object });
const react = (token: string, payload: unknown) => t.api({ method: 'POST', url: '/reactions', token, payload: payload as object });

/** A shared portfolio of a lead with a member, an invitee, a shared artifact by the member holding a 10 s video and an image. */
async function team() {
  const lead = await createLead(t);
  const member = await createTeacher(t);
  const invitee = await createTeacher(t);
  const sp = await createSharedPortfolio(t, lead, { members: [member] });
  await createInvitation(t, sp, invitee);
  const sa = await createSharedArtifact(t, sp, member);
  const video = await attachVideo(t, 'sharedArtifact', sa.id, 10);
  const image = await attachMedia(t, 'sharedArtifact', sa.id, 'image');
  return { lead, member, invitee, sp, sa, video, image };
}

/** A teacher's completed artifact holding a 10 s video. */
async function personalVideo() {
  const owner = await createTeacher(t);
  const portfolio = await createPortfolio(t, owner);
  const artifact = await createArtifact(t, portfolio, { parkingLot: false });
  const video = await attachVideo(t, 'artifact', artifact.id, 10);
  return { owner, portfolio, artifact, video };
}

describe('the video length', () => {
  it('is recorded at the poster step, comes with the file, and is read again when a file lacks it', async () => {
    const { owner, portfolio, artifact } = await personalVideo();
    const res = await t.api({
      method: 'POST',
      url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/videos`,
      token: owner.token,
      ...multipartParts([
        { field: 'alt', value: 'Students rolling cars down a ramp' },
        { field: 'file', filename: 'ramp.mp4', content: ffmpegVideo(), contentType: 'video/mp4' },
        { field: 'description', value: 'Transcript: "Ready, set, go!"' },
      ]),
    });
    expect(res).toHaveStatus(200);
    const media = ArtifactMediaResponseSchema.parse(res.json());
    expect(media.duration).toBeCloseTo(2, 1);
    expect(media).toMatchObject({ alt: 'Students rolling cars down a ramp', description: 'Transcript: "Ready, set, go!"' });
    expect(media.parentArtifact.videos.find((v) => v.id === media.id)).toMatchObject({ alt: 'Students rolling cars down a ramp' });

    // A file stored before lengths were recorded: read when a moment first needs it.
    await t.db.query('UPDATE media_files SET duration = NULL WHERE id = $1', [media.id]);
    const past = await t.api({ method: 'POST', url: `/artifacts/${artifact.id}/notes`, token: owner.token, payload: { media: media.id, start: 2.5, text: 'Too late' } });
    expect(past).toBeApiError(400, /past the end of the video \(0:02\)/);
    const { rows } = await t.db.query<{ duration: number }>('SELECT duration FROM media_files WHERE id = $1', [media.id]);
    expect(rows[0]!.duration).toBeCloseTo(2, 1);
    const note = await t.api({ method: 'POST', url: `/artifacts/${artifact.id}/notes`, token: owner.token, payload: { media: media.id, start: 1.5, text: 'Watch the red car' } });
    expect(note).toHaveStatus(200);
  });

  it('refuses alt text over 1000 characters sent with an upload, storing nothing', async () => {
    const { owner, portfolio, artifact } = await personalVideo();
    const before = await snapshot(t);
    const res = await t.api({
      method: 'POST',
      url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/images`,
      token: owner.token,
      ...multipartParts([
        { field: 'file', filename: 'photo.png', content: await pngImage(40, 30), contentType: 'image/png' },
        { field: 'alt', value: 'x'.repeat(1001) },
      ]),
    });
    expect(res).toBeApiError(400, 'Alt text can be at most 1000 characters.');
    expect(await snapshot(t)).toEqual(before);
  });

  it('says so when a video’s length cannot be read, placing nothing', async () => {
    const { member, sa } = await team();
    const unknown = await attachVideo(t, 'sharedArtifact', sa.id, null);
    const before = await snapshot(t);
    expect(await comment(member.token, { text: 'Here', sharedArtifact: sa.id, moment: { media: unknown, start: 1 } })).toBeApiError(
      400,
      'The length of this video could not be read, so nothing can be placed at a moment of it.',
    );
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('comments at a moment', () => {
  it('anchor to a time or a range of a video, and every comment response carries the moment', async () => {
    const { lead, member, sa, video } = await team();
    const at = await comment(member.token, { text: 'Great wait time here.', sharedArtifact: sa.id, moment: { media: video, start: 3.25 } });
    expect(at).toHaveStatus(200);
    const body = CommentResponseSchema.parse(at.json());
    expect(body.moment).toEqual({ media: video, start: 3.25, end: null });
    const range = CommentResponseSchema.parse((await comment(lead.token, { text: 'This stretch.', sharedArtifact: sa.id, moment: { media: video, start: 4, end: 10 } })).json());
    expect(range.moment).toEqual({ media: video, start: 4, end: 10 });
    const whole = CommentResponseSchema.parse((await comment(lead.token, { text: 'Overall lovely.', sharedArtifact: sa.id })).json());
    expect(whole.moment).toBeNull();
    expect(range.sharedArtifactComments.map((c) => c.moment)).toEqual([{ media: video, start: 3.25, end: null }, { media: video, start: 4, end: 10 }]);

    const detail = SharedArtifactDetailSchema.parse((await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}`, token: lead.token })).json());
    expect(detail.comments.map((c) => c.moment?.start ?? null)).toEqual([3.25, 4, null]);
    // The mobile apps' list gains the field and nothing else changes.
    const list = (await t.api({ method: 'GET', url: '/comments', token: member.token })).json<unknown[]>();
    const mine = list.map((c) => CommentSchema.parse(c)).find((c) => c.id === body.id)!;
    expect(mine).toMatchObject({ id: body.id, text: 'Great wait time here.', owner: { id: member.user.id }, sharedArtifact: { id: sa.id }, moment: { media: video, start: 3.25, end: null } });
    expect(Object.keys(list[0] as object).sort()).toEqual(['created_at', 'id', 'moment', 'owner', 'sharedArtifact', 'text', 'updated_at', 'updated_by', 'username']);
  });

  it('refuses bad moments with a clear 400 and stores nothing', async () => {
    const { member, sa, image } = await team();
    const video = (await t.db.query<{ media_id: number }>("SELECT l.media_id FROM shared_artifact_media l JOIN media_files m ON m.id = l.media_id WHERE l.shared_artifact_id = $1 AND m.kind = 'video'", [sa.id])).rows[0]!.media_id;
    const other = await team();
    const before = await snapshot(t);
    const cases: [unknown, string | RegExp][] = [
      [{ media: video, start: -1 }, 'A time cannot be negative.'],
      [{ media: video, start: 'NaN' }, 'A time must be a number of seconds.'],
      [{ media: video, start: '1.5' }, 'A time must be a number of seconds.'],
      [{ media: video, start: null }, 'A time must be a number of seconds.'],
      [{ media: video, start: 10.5 }, 'The moment is past the end of the video (0:10).'],
      [{ media: video, start: 2, end: 11 }, 'The moment is past the end of the video (0:10).'],
      [{ media: video, start: 5, end: 4 }, 'The end of a moment cannot be before its start.'],
      [{ media: video, start: 1e6 }, 'A time cannot be past the end of the video.'],
      [{ media: image, start: 1, end: 2 }, 'A moment can be placed only on a video, not on an image or a document.'],
      [{ media: image, start: 1 }, 'A moment can be placed only on a video, not on an image or a document.'],
      [{ media: other.video, start: 1 }, 'This video is not part of this artifact.'],
      [{ media: 2_000_000_000, start: 1 }, 'This video is not part of this artifact.'],
      [{ media: 'abc', start: 1 }, /moment\.media must be a number/],
      [{ start: 1 }, /moment\.media is required/],
      [{ media: video, start: 1, at: 3 }, /Unknown field "at" in moment/],
      ['3.5', /moment must be an object/],
    ];
    for (const [moment, message] of cases) {
      expect(await comment(member.token, { text: 'At this moment.', sharedArtifact: sa.id, moment }), JSON.stringify(moment)).toBeApiError(400, message);
      expect(await react(member.token, { value: '⭐', sharedArtifact: sa.id, moment }), JSON.stringify(moment)).toBeApiError(400, message);
    }
    // Infinity cannot be written in JSON, but an overflowing number parses to it.
    const infinite = await t.api({
      method: 'POST',
      url: '/comments',
      token: member.token,
      headers: { 'content-type': 'application/json' },
      payload: `{"text":"x","sharedArtifact":${sa.id},"moment":{"media":${video},"start":1e999}}`,
    });
    expect(infinite).toBeApiError(400, 'A time must be a number of seconds.');
    expect(await snapshot(t)).toEqual(before);
  });

  it('can be moved to another moment or back to the whole artifact by its author only', async () => {
    const { lead, member, sa, video, image } = await team();
    const id = CommentResponseSchema.parse((await comment(member.token, { text: 'First take.', sharedArtifact: sa.id, moment: { media: video, start: 1 } })).json()).id;
    const edit = (token: string, payload: unknown) => t.api({ method: 'PUT', url: `/comments/${id}`, token, payload: payload as object });
    expect(CommentResponseSchema.parse((await edit(member.token, { text: 'Kept moment.' })).json()).moment).toEqual({ media: video, start: 1, end: null });
    expect(CommentResponseSchema.parse((await edit(member.token, { text: 'Moved.', moment: { media: video, start: 2, end: 3.5 } })).json()).moment).toEqual({ media: video, start: 2, end: 3.5 });
    const before = await snapshot(t);
    expect(await edit(member.token, { text: 'Bad.', moment: { media: image, start: 1 } })).toBeApiError(400, /only on a video/);
    expect(await edit(member.token, { text: 'Bad.', moment: { media: video, start: 20 } })).toBeApiError(400, /past the end/);
    expect(await edit(lead.token, { text: 'Not mine.', moment: null })).toBeApiError(403, 'You can change only your own comments and reactions.');
    expect(await snapshot(t)).toEqual(before);
    expect(CommentResponseSchema.parse((await edit(member.token, { text: 'Whole artifact.', moment: null })).json()).moment).toBeNull();
  });

  it('are authorised exactly as comments: members and researchers; not invitees, outsiders or blocked accounts', async () => {
    const { invitee, sa, video } = await team();
    const moment = { media: video, start: 1 };
    const researcher = await createResearcher(t);
    expect(await comment(researcher.token, { text: 'Research note.', sharedArtifact: sa.id, moment })).toHaveStatus(200);
    const outsider = await createTeacher(t);
    const blocked = await createUser(t, { blocked: true });
    const before = await snapshot(t);
    for (const who of [invitee, outsider]) {
      expect(await comment(who.token, { text: 'Hi', sharedArtifact: sa.id, moment })).toBeApiError(404, 'Invalid shared artifact ID.');
      expect(await react(who.token, { value: '⭐', sharedArtifact: sa.id, moment })).toBeApiError(404, 'Invalid shared artifact ID.');
    }
    // An outsider learns nothing about the artifact's videos: the membership check comes first.
    expect(await comment(outsider.token, { text: 'Hi', sharedArtifact: sa.id, moment: { media: video, start: 99 } })).toBeApiError(404, 'Invalid shared artifact ID.');
    expect(await comment(blocked.token, { text: 'Hi', sharedArtifact: sa.id, moment })).toBeApiError(401);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('reactions at a moment', () => {
  it('are one per person, value and moment, beside the one whole-artifact reaction per value', async () => {
    const { member, sa, video } = await team();
    const whole = ReactionSchema.parse((await react(member.token, { value: '⭐', sharedArtifact: sa.id })).json());
    expect(whole.moment).toBeNull();
    expect(ReactionSchema.parse((await react(member.token, { value: '⭐', sharedArtifact: sa.id })).json()).id).toBe(whole.id);
    const at = ReactionSchema.parse((await react(member.token, { value: '⭐', sharedArtifact: sa.id, moment: { media: video, start: 2 } })).json());
    expect(at.id).not.toBe(whole.id);
    expect(at.moment).toEqual({ media: video, start: 2, end: null });
    expect(ReactionSchema.parse((await react(member.token, { value: '⭐', sharedArtifact: sa.id, moment: { media: video, start: 2 } })).json()).id).toBe(at.id);
    const later = ReactionSchema.parse((await react(member.token, { value: '⭐', sharedArtifact: sa.id, moment: { media: video, start: 6, end: 8 } })).json());
    expect(later.moment).toEqual({ media: video, start: 6, end: 8 });
    const detail = SharedArtifactDetailSchema.parse((await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}`, token: member.token })).json());
    expect(detail.reactions.map((r) => r.moment?.start ?? null)).toEqual([null, 2, 6]);
    expect(detail.reactions.map((r) => r.id)).toEqual([whole.id, at.id, later.id]);
    const mobile = (await t.api({ method: 'GET', url: '/reactions', token: member.token })).json<unknown[]>().map((r) => ReactionSchema.parse(r));
    expect(mobile.filter((r) => r.sharedArtifact.id === sa.id)).toHaveLength(3);
  });

  it('keep a video with moments from being removed from its shared artifact', async () => {
    const { sp, member, sa, video } = await team();
    expect(await comment(member.token, { text: 'Here.', sharedArtifact: sa.id, moment: { media: video, start: 1 } })).toHaveStatus(200);
    const before = await snapshot(t);
    const res = await t.api({ method: 'DELETE', url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa.id}/videos/${video}`, token: member.token });
    expect(res).toBeApiError(400, 'This video has comments or reactions at its moments, so it cannot be removed.');
    expect(await snapshot(t)).toEqual(before);
  });
});

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

const VTT = 'WEBVTT\n\n00:00.500 --> 00:02.000\n<v Ms. Rivera>Good morning, class.\n\n00:03.000 --> 00:05.000\nLet’s <i>predict</i> first.\n';

describe('captions', () => {
  it('are added from WebVTT or SRT, listed, edited cue by cue, served as WebVTT and deleted', async () => {
    const { member, sa, video } = await team();
    const add = (payload: unknown) => t.api({ method: 'POST', url: `/shared-artifacts/${sa.id}/media/${video}/captions`, token: member.token, payload: payload as object });
    const res = await add({ language: 'en', label: 'English', format: 'vtt', source: VTT });
    expect(res).toHaveStatus(200);
    const track = CaptionTrackSchema.parse(res.json());
    expect(track).toMatchObject({ media: video, language: 'en', label: 'English', canEdit: true, url: `/captions/${track.id}/track.vtt` });
    expect(track.cues).toEqual([
      { start: 0.5, end: 2, text: '<v Ms. Rivera>Good morning, class.' },
      { start: 3, end: 5, text: 'Let’s <i>predict</i> first.' },
    ]);

    const srt = CaptionTrackSchema.parse((await add({ language: 'es-MX', label: 'Español', format: 'srt', source: '1\r\n00:00:01,000 --> 00:00:02,500\r\nBuenos días & bienvenidos\r\n' })).json());
    expect(srt.cues).toEqual([{ start: 1, end: 2.5, text: 'Buenos días &amp; bienvenidos' }]);

    const list = CaptionTrackListSchema.parse((await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}/media/${video}/captions`, token: member.token })).json());
    expect(list.map((c) => c.label)).toEqual(['English', 'Español']);

    const file = await t.api({ method: 'GET', url: `/captions/${srt.id}/track.vtt`, token: member.token });
    expect(file).toHaveStatus(200);
    expect(file.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(file.headers['content-disposition']).toBeUndefined();
    expect(file.body).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nBuenos días &amp; bienvenidos\n');
    const download = await t.api({ method: 'GET', url: `/captions/${srt.id}/track.vtt?download=1`, token: member.token });
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename=".*\.es-MX\.vtt"/);

    const put = (payload: unknown) => t.api({ method: 'PUT', url: `/captions/${track.id}`, token: member.token, payload: payload as object });
    const edited = CaptionTrackSchema.parse(
      (await put({ language: 'en', label: 'English (edited)', cues: [{ start: 6, end: 7, text: 'Last & best' }, { start: 0, end: 1, text: 'First' }] })).json(),
    );
    expect(edited.cues).toEqual([
      { start: 0, end: 1, text: 'First' },
      { start: 6, end: 7, text: 'Last &amp; best' },
    ]);
    const before = await snapshot(t);
    expect(await put({ language: 'en', label: 'x', cues: [{ start: 1, end: 1, text: 'Zero length' }] })).toBeApiError(400, 'A caption must end after it starts.');
    expect(await put({ language: 'en', label: 'x', cues: [{ start: 1, end: 12, text: 'Too long' }] })).toBeApiError(400, /Caption 1 ends at 00:00:12.000, after the end of the video/);
    expect(await put({ language: 'en', label: 'x', cues: [{ start: 1, end: 2, text: '<script>alert(1)</script>' }] })).toBeApiError(400, /The tag <script> is not allowed/);
    expect(await put({ language: 'en', label: 'x', cues: [{ start: 1, end: 2, text: 'x', style: 'y' }] })).toBeApiError(400, /Unknown field "style"/);
    expect(await put({ language: 'english language!', label: 'x', cues: [] })).toBeApiError(400, 'Please give a language tag such as en or es-MX.');
    expect(await snapshot(t)).toEqual(before);

    expect(CaptionTrackSchema.parse((await t.api({ method: 'DELETE', url: `/captions/${track.id}`, token: member.token })).json()).id).toBe(track.id);
    expect(await t.api({ method: 'GET', url: `/captions/${track.id}/track.vtt`, token: member.token })).toBeApiError(404, 'Caption track not found.');
    expect(sa.id).toBeGreaterThan(0);
  });

  it('refuse malformed, oversized and scripted files, storing nothing', async () => {
    const { member, sa, video, image } = await team();
    const add = (payload: unknown, media = video) => t.api({ method: 'POST', url: `/shared-artifacts/${sa.id}/media/${media}/captions`, token: member.token, payload: payload as object });
    const track = (source: string, format = 'vtt') => ({ language: 'en', label: 'English', format, source });
    const before = await snapshot(t);
    expect(await add(track('00:00.000 --> 00:01.000\nNo signature'))).toBeApiError(400, 'Line 1: A WebVTT file must start with "WEBVTT".');
    expect(await add(track('WEBVTT\n\n00:00.000 -> 00:01.000\nHi'))).toBeApiError(400, /^Line 4: Expected a caption time line/);
    expect(await add(track('WEBVTT\n\n00:01.000 --> 00:00.500\nBackwards'))).toBeApiError(400, 'Line 3: A caption must end after it starts.');
    expect(await add(track('WEBVTT\n\n00:00.000 --> 00:01.000\n<script>alert(document.cookie)</script>'))).toBeApiError(400, /The tag <script> is not allowed in captions/);
    expect(await add(track('WEBVTT\n\n00:00.000 --> 00:01.000\n<img src=x onerror=alert(1)>'))).toBeApiError(400, /The tag <img> is not allowed/);
    expect(await add(track('WEBVTT\n\n00:00.000 --> 00:01.000\n<b onmouseover="alert(1)">x</b>'))).toBeApiError(400, /cannot have attributes/);
    expect(await add(track('1\n00:00:01,000 --> 00:00:02,000\n<font color="red">x</font>', 'srt'))).toBeApiError(400, /The tag <font> is not allowed/);
    expect(await add(track('not an srt file', 'srt'))).toBeApiError(400, /Expected the number of a caption/);
    expect(await add({ ...track(VTT), format: 'ass' })).toBeApiError(400, 'The format must be vtt or srt.');
    expect(await add(track(VTT), image)).toBeApiError(400, 'Captions can be added only to videos.');
    // Over 512 KiB: refused before it is read (multi-byte text counts in bytes).
    const huge = `WEBVTT\n\n${'00:00.000 --> 00:01.000\n'}${'é'.repeat(300 * 1024)}`;
    expect(await add(track(huge))).toBeApiError(413, 'A caption file can be at most 512 KiB.');
    expect(await add(track(`WEBVTT\n\n${'x'.repeat(600 * 1024)}`))).toBeApiError(400, 'A caption file can be at most 512 KiB.');
    const many = Array.from({ length: 5001 }, (_, i) => `00:00:0${i % 9}.000 --> 00:00:09.500\nCue ${i}`).join('\n\n');
    expect(await add(track(`WEBVTT\n\n${many}`))).toBeApiError(400, 'A track can have at most 5000 captions.');
    expect(await snapshot(t)).toEqual(before);
  });

  it('fit an uploaded file to the video: a caption ending after its end is cut there, one starting after it left out, with a notice', async () => {
    const { member, sa, video } = await team();
    const res = await t.api({
      method: 'POST',
      url: `/shared-artifacts/${sa.id}/media/${video}/captions`,
      token: member.token,
      payload: { language: 'en', label: 'English', format: 'vtt', source: 'WEBVTT\n\n00:01.000 --> 00:02.000\nIn time\n\n00:09.000 --> 00:12.000\nAfter the end\n\n00:11.000 --> 00:13.000\nGone\n' },
    });
    expect(res).toHaveStatus(200);
    const track = CaptionUploadResponseSchema.parse(res.json());
    expect(track.cues).toEqual([
      { start: 1, end: 2, text: 'In time' },
      { start: 9, end: 10, text: 'After the end' },
    ]);
    expect(track.notice).toBe('1 caption ended after the end of the video (00:00:10.000) and was cut to end there. 1 caption starts after the end of the video and was left out.');
    const fits = await t.api({
      method: 'POST',
      url: `/shared-artifacts/${sa.id}/media/${video}/captions`,
      token: member.token,
      payload: { language: 'es', label: 'Español', format: 'vtt', source: 'WEBVTT\n\n00:01.000 --> 00:10.020\nHola\n' },
    });
    expect(CaptionUploadResponseSchema.parse(fits.json()).notice).toBeNull();
  });

  it('are read by whoever may view the video and changed by whoever may edit an artifact holding it', async () => {
    const { lead, member, invitee, sa, video } = await team();
    const captionsUrl = `/shared-artifacts/${sa.id}/media/${video}/captions`;
    const track = CaptionTrackSchema.parse(
      (await t.api({ method: 'POST', url: captionsUrl, token: member.token, payload: { language: 'en', label: 'English', format: 'vtt', source: VTT } })).json(),
    );
    const researcher = await createResearcher(t);
    const outsider = await createTeacher(t);
    const blocked = await createUser(t, { blocked: true });
    const listFor = async (token: string, url = captionsUrl) => CaptionTrackListSchema.parse((await t.api({ method: 'GET', url, token })).json());
    expect((await listFor(lead.token))[0]!.canEdit).toBe(true);
    expect((await listFor(researcher.token))[0]!.canEdit).toBe(true);
    expect((await listFor(invitee.token))[0]!.canEdit).toBe(false);
    expect(await t.api({ method: 'GET', url: `/captions/${track.id}/track.vtt`, token: invitee.token })).toHaveStatus(200);
    const before = await snapshot(t);
    const cue = { language: 'en', label: 'x', cues: [] };
    expect(await t.api({ method: 'PUT', url: `/captions/${track.id}`, token: invitee.token, payload: cue })).toBeApiError(403, 'You can read these captions but not change them.');
    expect(await t.api({ method: 'DELETE', url: `/captions/${track.id}`, token: invitee.token })).toBeApiError(403);
    expect(await t.api({ method: 'POST', url: captionsUrl, token: invitee.token, payload: { language: 'en', label: 'x', format: 'vtt', source: VTT } })).toBeApiError(
      403,
      'You can read the captions of this video but not change them.',
    );
    expect(await t.api({ method: 'GET', url: captionsUrl, token: outsider.token })).toBeApiError(404, 'Shared artifact not found.');
    expect(await t.api({ method: 'GET', url: `/captions/${track.id}/track.vtt`, token: outsider.token })).toBeApiError(404, 'Caption track not found.');
    expect(await t.api({ method: 'PUT', url: `/captions/${track.id}`, token: outsider.token, payload: cue })).toBeApiError(404, 'Caption track not found.');
    expect(await t.api({ method: 'GET', url: `/captions/${track.id}/track.vtt`, token: blocked.token })).toBeApiError(401);
    expect(await snapshot(t)).toEqual(before);

    // A personal artifact's video: its owner edits; researchers only read.
    const own = await personalVideo();
    const ownUrl = `/artifacts/${own.artifact.id}/media/${own.video}/captions`;
    const add = (token: string) => t.api({ method: 'POST', url: ownUrl, token, payload: { language: 'en', label: 'Mine', format: 'vtt', source: VTT } });
    expect(await add(own.owner.token)).toHaveStatus(200);
    expect(await add(researcher.token)).toBeApiError(403);
    expect((await listFor(researcher.token, ownUrl)).length).toBe(1);
    expect(await add(member.token)).toBeApiError(404, 'Artifact not found.');
    // The video through an artifact that does not hold it.
    expect(await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}/media/${own.video}/captions`, token: member.token })).toBeApiError(404, 'File not found.');
  });
});

describe('caption tracks per artifact (copy on write)', () => {
  const vtt = (text: string) => `WEBVTT\n\n00:00.500 --> 00:02.000\n${text}\n`;
  const addTo = (token: string, url: string, payload: object) => t.api({ method: 'POST', url, token, payload });
  const cuesOf = async (token: string, url: string) =>
    Promise.all(
      CaptionTrackListSchema.parse((await t.api({ method: 'GET', url, token })).json()).map(async (track) => {
        const full = CaptionTrackSchema.parse((await t.api({ method: 'GET', url: `/captions/${track.id}`, token })).json());
        return [track.label, track.language, full.cues.map((c) => c.text)];
      }),
    );

  it('a shared copy starts with the personal tracks; edits on it never reach the personal artifact or another copy; the owner hears of them', async () => {
    const own = await personalVideo();
    const ownUrl = `/artifacts/${own.artifact.id}/media/${own.video}/captions`;
    expect(await addTo(own.owner.token, ownUrl, { language: 'en', label: 'English', format: 'vtt', source: vtt('Mine') })).toHaveStatus(200);
    const lead = await createLead(t);
    const colleague = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [own.owner, colleague] });
    const share = async () => {
      const res = await t.api({ method: 'POST', url: `/artifacts/${own.artifact.id}/share`, token: own.owner.token, payload: { sharedPortfolioId: sp.id } });
      expect(res).toHaveStatus(200);
      return SharedArtifactSchema.parse(res.json()).id;
    };
    const first = await share();
    const second = await share();
    const firstUrl = `/shared-artifacts/${first}/media/${own.video}/captions`;
    const secondUrl = `/shared-artifacts/${second}/media/${own.video}/captions`;
    expect(await cuesOf(colleague.token, firstUrl)).toEqual([['English', 'en', ['Mine']]]);

    // A colleague changes the copy's track and adds one: only that copy changes.
    const [copyTrack] = CaptionTrackListSchema.parse((await t.api({ method: 'GET', url: firstUrl, token: colleague.token })).json());
    expect(copyTrack!.canEdit).toBe(true);
    const put = await t.api({ method: 'PUT', url: `/captions/${copyTrack!.id}`, token: colleague.token, payload: { language: 'en', label: 'English', cues: [{ start: 0, end: 1, text: 'Rewritten' }] } });
    expect(put).toHaveStatus(200);
    expect(await addTo(colleague.token, firstUrl, { language: 'es', label: 'Español', format: 'vtt', source: vtt('Hola') })).toHaveStatus(200);
    expect(await cuesOf(colleague.token, firstUrl)).toEqual([['English', 'en', ['Rewritten']], ['Español', 'es', ['Hola']]]);
    expect(await cuesOf(own.owner.token, ownUrl)).toEqual([['English', 'en', ['Mine']]]);
    expect(await cuesOf(own.owner.token, secondUrl)).toEqual([['English', 'en', ['Mine']]]);
    const served = await t.api({ method: 'GET', url: `/captions/${copyTrack!.id}/track.vtt`, token: own.owner.token });
    expect(served.body).toContain('Rewritten');

    // The owner of the copy hears of the edits (one batched item); the colleague does not hear of her own.
    const feed = async (token: string) => NotificationListResponseSchema.parse((await t.api({ method: 'GET', url: '/notifications', token })).json()).items;
    const items = (await feed(own.owner.token)).filter((n) => n.kind === 'snapshot_edited');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ actor: { id: colleague.user.id }, count: 2 });
    expect((await feed(colleague.token)).filter((n) => n.kind === 'snapshot_edited')).toEqual([]);

    // The personal artifact's tracks are its owner's alone: a member of the shared portfolio cannot reach them.
    const [personal] = CaptionTrackListSchema.parse((await t.api({ method: 'GET', url: ownUrl, token: own.owner.token })).json());
    expect(await t.api({ method: 'PUT', url: `/captions/${personal!.id}`, token: colleague.token, payload: { language: 'en', label: 'x', cues: [] } })).toBeApiError(404, 'Caption track not found.');
    expect(await t.api({ method: 'GET', url: ownUrl, token: colleague.token })).toBeApiError(404);

    // Removing the video from the copy removes that copy's tracks only.
    await t.db.query('DELETE FROM comments WHERE shared_artifact_id = $1', [first]);
    expect(await t.api({ method: 'DELETE', url: `/shared-portfolios/${sp.id}/shared-artifacts/${first}/videos/${own.video}`, token: own.owner.token })).toHaveStatus(200);
    expect((await t.db.query('SELECT id FROM caption_tracks WHERE shared_artifact_id = $1', [first])).rows).toEqual([]);
    expect(await cuesOf(own.owner.token, ownUrl)).toEqual([['English', 'en', ['Mine']]]);
  });

  it('a second track in the same language replaces the first; a second "English" in another tag is named by its tag', async () => {
    const own = await personalVideo();
    const url = `/artifacts/${own.artifact.id}/media/${own.video}/captions`;
    const first = CaptionTrackSchema.parse((await addTo(own.owner.token, url, { language: 'en', label: 'English', format: 'vtt', source: vtt('One') })).json());
    const again = CaptionTrackSchema.parse((await addTo(own.owner.token, url, { language: 'EN', label: 'English', format: 'vtt', source: vtt('Two') })).json());
    expect(again.id).toBe(first.id);
    expect(await cuesOf(own.owner.token, url)).toEqual([['English', 'EN', ['Two']]]);
    expect(CaptionTrackSchema.parse((await addTo(own.owner.token, url, { language: 'en-GB', label: 'English', format: 'vtt', source: vtt('Three') })).json()).label).toBe('English (en-GB)');
    expect((await cuesOf(own.owner.token, url)).map(([label]) => label)).toEqual(['English', 'English (en-GB)']);
    // Changing a track to the language of another is refused.
    const before = await snapshot(t);
    expect(await t.api({ method: 'PUT', url: `/captions/${first.id}`, token: own.owner.token, payload: { language: 'en-gb', label: 'English', cues: [] } })).toBeApiError(
      409,
      /already has a caption track in en-gb/,
    );
    expect(await snapshot(t)).toEqual(before);
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
