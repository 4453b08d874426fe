import { describe, expect, it } from 'vitest';
import { CaptionTrackListSchema, CaptionTrackSchema, CaptionUploadResponseSchema } from '#schemas/moments';
import { createResearcher, createTeacher, createUser, snapshot } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { momentKit, VTT } from '../../test/fixtures/moments.ts';

const t = await buildTestApp();
const { team, personalVideo } = momentKit(t);

describe('captions', () => {
  it('are added from WebVTT or SRT, listed, edited cue by cue, served as WebVTT and deleted', async () => {
    const { member, sa, video } = await team();
    const add = (payload: unknown) =>
      t.api({
        method: 'POST',
        url: `/shared-artifacts/${sa.id}/media/${video}/captions`,
        token: member.token,
        payload: payload as object,
      });
    const res = await add({ language: 'en', label: 'English', format: 'vtt', source: VTT });
    expect(res).toHaveStatus(200);
    const track = CaptionTrackSchema.parse(res.json());
    expect(track).toMatchObject({
      media: video,
      language: 'en',
      label: 'English',
      canEdit: true,
      url: `/captions/${track.id}/track.vtt`,
    });
    expect(track.cues).toEqual([
      { start: 0.5, end: 2, text: '<v Ms. Rivera>Good morning, class.' },
      { start: 3, end: 5, text: 'Let’s <i>predict</i> first.' },
    ]);

    const srt = CaptionTrackSchema.parse(
      (
        await add({
          language: 'es-MX',
          label: 'Español',
          format: 'srt',
          source: '1\r\n00:00:01,000 --> 00:00:02,500\r\nBuenos días & bienvenidos\r\n',
        })
      ).json(),
    );
    expect(srt.cues).toEqual([{ start: 1, end: 2.5, text: 'Buenos días &amp; bienvenidos' }]);

    const list = CaptionTrackListSchema.parse(
      (
        await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}/media/${video}/captions`, token: member.token })
      ).json(),
    );
    expect(list.map((c) => c.label)).toEqual(['English', 'Español']);

    const file = await t.api({ method: 'GET', url: `/captions/${srt.id}/track.vtt`, token: member.token });
    expect(file).toHaveStatus(200);
    expect(file.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(file.headers['content-disposition']).toBeUndefined();
    expect(file.body).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nBuenos días &amp; bienvenidos\n');
    const download = await t.api({
      method: 'GET',
      url: `/captions/${srt.id}/track.vtt?download=1`,
      token: member.token,
    });
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename=".*\.es-MX\.vtt"/);

    const put = (payload: unknown) =>
      t.api({ method: 'PUT', url: `/captions/${track.id}`, token: member.token, payload: payload as object });
    const edited = CaptionTrackSchema.parse(
      (
        await put({
          language: 'en',
          label: 'English (edited)',
          cues: [
            { start: 6, end: 7, text: 'Last & best' },
            { start: 0, end: 1, text: 'First' },
          ],
        })
      ).json(),
    );
    expect(edited.cues).toEqual([
      { start: 0, end: 1, text: 'First' },
      { start: 6, end: 7, text: 'Last &amp; best' },
    ]);
    const before = await snapshot(t);
    expect(await put({ language: 'en', label: 'x', cues: [{ start: 1, end: 1, text: 'Zero length' }] })).toBeApiError(
      400,
      'A caption must end after it starts.',
    );
    expect(await put({ language: 'en', label: 'x', cues: [{ start: 1, end: 12, text: 'Too long' }] })).toBeApiError(
      400,
      /Caption 1 ends at 00:00:12.000, after the end of the video/,
    );
    expect(
      await put({ language: 'en', label: 'x', cues: [{ start: 1, end: 2, text: '<script>alert(1)</script>' }] }),
    ).toBeApiError(400, /The tag <script> is not allowed/);
    expect(await put({ language: 'en', label: 'x', cues: [{ start: 1, end: 2, text: 'x', style: 'y' }] })).toBeApiError(
      400,
      /Unknown field "style"/,
    );
    expect(await put({ language: 'english language!', label: 'x', cues: [] })).toBeApiError(
      400,
      'Please give a language tag such as en or es-MX.',
    );
    expect(await snapshot(t)).toEqual(before);

    expect(
      CaptionTrackSchema.parse(
        (await t.api({ method: 'DELETE', url: `/captions/${track.id}`, token: member.token })).json(),
      ).id,
    ).toBe(track.id);
    expect(await t.api({ method: 'GET', url: `/captions/${track.id}/track.vtt`, token: member.token })).toBeApiError(
      404,
      'Caption track not found.',
    );
    expect(sa.id).toBeGreaterThan(0);
  });

  it('refuse malformed, oversized and scripted files, storing nothing', async () => {
    const { member, sa, video, image } = await team();
    const add = (payload: unknown, media = video) =>
      t.api({
        method: 'POST',
        url: `/shared-artifacts/${sa.id}/media/${media}/captions`,
        token: member.token,
        payload: payload as object,
      });
    const track = (source: string, format = 'vtt') => ({ language: 'en', label: 'English', format, source });
    const before = await snapshot(t);
    expect(await add(track('00:00.000 --> 00:01.000\nNo signature'))).toBeApiError(
      400,
      'Line 1: A WebVTT file must start with "WEBVTT".',
    );
    expect(await add(track('WEBVTT\n\n00:00.000 -> 00:01.000\nHi'))).toBeApiError(
      400,
      /^Line 4: Expected a caption time line/,
    );
    expect(await add(track('WEBVTT\n\n00:01.000 --> 00:00.500\nBackwards'))).toBeApiError(
      400,
      'Line 3: A caption must end after it starts.',
    );
    expect(await add(track('WEBVTT\n\n00:00.000 --> 00:01.000\n<script>alert(document.cookie)</script>'))).toBeApiError(
      400,
      /The tag <script> is not allowed in captions/,
    );
    expect(await add(track('WEBVTT\n\n00:00.000 --> 00:01.000\n<img src=x onerror=alert(1)>'))).toBeApiError(
      400,
      /The tag <img> is not allowed/,
    );
    expect(await add(track('WEBVTT\n\n00:00.000 --> 00:01.000\n<b onmouseover="alert(1)">x</b>'))).toBeApiError(
      400,
      /cannot have attributes/,
    );
    expect(await add(track('1\n00:00:01,000 --> 00:00:02,000\n<font color="red">x</font>', 'srt'))).toBeApiError(
      400,
      /The tag <font> is not allowed/,
    );
    expect(await add(track('not an srt file', 'srt'))).toBeApiError(400, /Expected the number of a caption/);
    expect(await add({ ...track(VTT), format: 'ass' })).toBeApiError(400, 'The format must be vtt or srt.');
    expect(await add(track(VTT), image)).toBeApiError(400, 'Captions can be added only to videos.');
    // Over 512 KiB: refused before it is read (multi-byte text counts in bytes).
    const huge = `WEBVTT\n\n${'00:00.000 --> 00:01.000\n'}${'é'.repeat(300 * 1024)}`;
    expect(await add(track(huge))).toBeApiError(413, 'A caption file can be at most 512 KiB.');
    expect(await add(track(`WEBVTT\n\n${'x'.repeat(600 * 1024)}`))).toBeApiError(
      400,
      'A caption file can be at most 512 KiB.',
    );
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
      payload: {
        language: 'en',
        label: 'English',
        format: 'vtt',
        source:
          'WEBVTT\n\n00:01.000 --> 00:02.000\nIn time\n\n00:09.000 --> 00:12.000\nAfter the end\n\n00:11.000 --> 00:13.000\nGone\n',
      },
    });
    expect(res).toHaveStatus(200);
    const track = CaptionUploadResponseSchema.parse(res.json());
    expect(track.cues).toEqual([
      { start: 1, end: 2, text: 'In time' },
      { start: 9, end: 10, text: 'After the end' },
    ]);
    expect(track.notice).toBe(
      '1 caption ended after the end of the video (00:00:10.000) and was cut to end there. 1 caption starts after the end of the video and was left out.',
    );
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
      (
        await t.api({
          method: 'POST',
          url: captionsUrl,
          token: member.token,
          payload: { language: 'en', label: 'English', format: 'vtt', source: VTT },
        })
      ).json(),
    );
    const researcher = await createResearcher(t);
    const outsider = await createTeacher(t);
    const blocked = await createUser(t, { blocked: true });
    const listFor = async (token: string, url = captionsUrl) =>
      CaptionTrackListSchema.parse((await t.api({ method: 'GET', url, token })).json());
    expect((await listFor(lead.token))[0]!.canEdit).toBe(true);
    expect((await listFor(researcher.token))[0]!.canEdit).toBe(true);
    expect((await listFor(invitee.token))[0]!.canEdit).toBe(false);
    expect(await t.api({ method: 'GET', url: `/captions/${track.id}/track.vtt`, token: invitee.token })).toHaveStatus(
      200,
    );
    const before = await snapshot(t);
    const cue = { language: 'en', label: 'x', cues: [] };
    expect(
      await t.api({ method: 'PUT', url: `/captions/${track.id}`, token: invitee.token, payload: cue }),
    ).toBeApiError(403, 'You can read these captions but not change them.');
    expect(await t.api({ method: 'DELETE', url: `/captions/${track.id}`, token: invitee.token })).toBeApiError(403);
    expect(
      await t.api({
        method: 'POST',
        url: captionsUrl,
        token: invitee.token,
        payload: { language: 'en', label: 'x', format: 'vtt', source: VTT },
      }),
    ).toBeApiError(403, 'You can read the captions of this video but not change them.');
    expect(await t.api({ method: 'GET', url: captionsUrl, token: outsider.token })).toBeApiError(
      404,
      'Shared artifact not found.',
    );
    expect(await t.api({ method: 'GET', url: `/captions/${track.id}/track.vtt`, token: outsider.token })).toBeApiError(
      404,
      'Caption track not found.',
    );
    expect(
      await t.api({ method: 'PUT', url: `/captions/${track.id}`, token: outsider.token, payload: cue }),
    ).toBeApiError(404, 'Caption track not found.');
    expect(await t.api({ method: 'GET', url: `/captions/${track.id}/track.vtt`, token: blocked.token })).toBeApiError(
      401,
    );
    expect(await snapshot(t)).toEqual(before);

    // A personal artifact's video: its owner edits; researchers only read.
    const own = await personalVideo();
    const ownUrl = `/artifacts/${own.artifact.id}/media/${own.video}/captions`;
    const add = (token: string) =>
      t.api({
        method: 'POST',
        url: ownUrl,
        token,
        payload: { language: 'en', label: 'Mine', format: 'vtt', source: VTT },
      });
    expect(await add(own.owner.token)).toHaveStatus(200);
    expect(await add(researcher.token)).toBeApiError(403);
    expect((await listFor(researcher.token, ownUrl)).length).toBe(1);
    expect(await add(member.token)).toBeApiError(404, 'Artifact not found.');
    // The video through an artifact that does not hold it.
    expect(
      await t.api({
        method: 'GET',
        url: `/shared-artifacts/${sa.id}/media/${own.video}/captions`,
        token: member.token,
      }),
    ).toBeApiError(404, 'File not found.');
  });
});
