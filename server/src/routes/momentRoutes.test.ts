import { describe, expect, it } from 'vitest';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import { CommentResponseSchema, ReactionSchema, SharedArtifactDetailSchema } from '#schemas/sharedArtifact';
import { CommentSchema } from '#schemas/sharedArtifact';
import { attachVideo, createResearcher, createTeacher, createUser, snapshot } from '../../test/factories.ts';
import { ffmpegVideo, multipartParts, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { momentKit } from '../../test/fixtures/moments.ts';

const t = await buildTestApp();
const { comment, react, team, personalVideo } = momentKit(t);

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
