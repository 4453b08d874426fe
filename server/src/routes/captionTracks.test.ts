import { describe, expect, it } from 'vitest';
import { CaptionTrackListSchema, CaptionTrackSchema } from '#schemas/moments';
import { SharedArtifactSchema } from '#schemas/sharedPortfolio';
import { NotificationListResponseSchema } from '#schemas/notifications';
import { createLead, createSharedPortfolio, createTeacher, snapshot } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { momentKit } from '../../test/fixtures/moments.ts';

const t = await buildTestApp();
const { personalVideo } = momentKit(t);

describe('caption tracks per artifact (copy on write)', () => {
  const vtt = (text: string) => `WEBVTT\n\n00:00.500 --> 00:02.000\n${text}\n`;
  const addTo = (token: string, url: string, payload: object) => t.api({ method: 'POST', url, token, payload });
  const cuesOf = async (token: string, url: string) =>
    Promise.all(
      CaptionTrackListSchema.parse((await t.api({ method: 'GET', url, token })).json()).map(async (track) => {
        const full = CaptionTrackSchema.parse(
          (await t.api({ method: 'GET', url: `/captions/${track.id}`, token })).json(),
        );
        return [track.label, track.language, full.cues.map((c) => c.text)];
      }),
    );

  it('a shared copy starts with the personal tracks; edits on it never reach the personal artifact or another copy; the owner hears of them', async () => {
    const own = await personalVideo();
    const ownUrl = `/artifacts/${own.artifact.id}/media/${own.video}/captions`;
    expect(
      await addTo(own.owner.token, ownUrl, { language: 'en', label: 'English', format: 'vtt', source: vtt('Mine') }),
    ).toHaveStatus(200);
    const lead = await createLead(t);
    const colleague = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [own.owner, colleague] });
    const share = async () => {
      const res = await t.api({
        method: 'POST',
        url: `/artifacts/${own.artifact.id}/share`,
        token: own.owner.token,
        payload: { sharedPortfolioId: sp.id },
      });
      expect(res).toHaveStatus(200);
      return SharedArtifactSchema.parse(res.json()).id;
    };
    const first = await share();
    const second = await share();
    const firstUrl = `/shared-artifacts/${first}/media/${own.video}/captions`;
    const secondUrl = `/shared-artifacts/${second}/media/${own.video}/captions`;
    expect(await cuesOf(colleague.token, firstUrl)).toEqual([['English', 'en', ['Mine']]]);

    // A colleague changes the copy's track and adds one: only that copy changes.
    const [copyTrack] = CaptionTrackListSchema.parse(
      (await t.api({ method: 'GET', url: firstUrl, token: colleague.token })).json(),
    );
    expect(copyTrack!.canEdit).toBe(true);
    const put = await t.api({
      method: 'PUT',
      url: `/captions/${copyTrack!.id}`,
      token: colleague.token,
      payload: { language: 'en', label: 'English', cues: [{ start: 0, end: 1, text: 'Rewritten' }] },
    });
    expect(put).toHaveStatus(200);
    expect(
      await addTo(colleague.token, firstUrl, { language: 'es', label: 'Español', format: 'vtt', source: vtt('Hola') }),
    ).toHaveStatus(200);
    expect(await cuesOf(colleague.token, firstUrl)).toEqual([
      ['English', 'en', ['Rewritten']],
      ['Español', 'es', ['Hola']],
    ]);
    expect(await cuesOf(own.owner.token, ownUrl)).toEqual([['English', 'en', ['Mine']]]);
    expect(await cuesOf(own.owner.token, secondUrl)).toEqual([['English', 'en', ['Mine']]]);
    const served = await t.api({ method: 'GET', url: `/captions/${copyTrack!.id}/track.vtt`, token: own.owner.token });
    expect(served.body).toContain('Rewritten');

    // The owner of the copy hears of the edits (one batched item); the colleague does not hear of her own.
    const feed = async (token: string) =>
      NotificationListResponseSchema.parse((await t.api({ method: 'GET', url: '/notifications', token })).json()).items;
    const items = (await feed(own.owner.token)).filter((n) => n.kind === 'snapshot_edited');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ actor: { id: colleague.user.id }, count: 2 });
    expect((await feed(colleague.token)).filter((n) => n.kind === 'snapshot_edited')).toEqual([]);

    // The personal artifact's tracks are its owner's alone: a member of the shared portfolio cannot reach them.
    const [personal] = CaptionTrackListSchema.parse(
      (await t.api({ method: 'GET', url: ownUrl, token: own.owner.token })).json(),
    );
    expect(
      await t.api({
        method: 'PUT',
        url: `/captions/${personal!.id}`,
        token: colleague.token,
        payload: { language: 'en', label: 'x', cues: [] },
      }),
    ).toBeApiError(404, 'Caption track not found.');
    expect(await t.api({ method: 'GET', url: ownUrl, token: colleague.token })).toBeApiError(404);

    // Removing the video from the copy removes that copy's tracks only.
    await t.db.query('DELETE FROM comments WHERE shared_artifact_id = $1', [first]);
    expect(
      await t.api({
        method: 'DELETE',
        url: `/shared-portfolios/${sp.id}/shared-artifacts/${first}/videos/${own.video}`,
        token: own.owner.token,
      }),
    ).toHaveStatus(200);
    expect((await t.db.query('SELECT id FROM caption_tracks WHERE shared_artifact_id = $1', [first])).rows).toEqual([]);
    expect(await cuesOf(own.owner.token, ownUrl)).toEqual([['English', 'en', ['Mine']]]);
  });

  it('a second track in the same language replaces the first; a second "English" in another tag is named by its tag', async () => {
    const own = await personalVideo();
    const url = `/artifacts/${own.artifact.id}/media/${own.video}/captions`;
    const first = CaptionTrackSchema.parse(
      (
        await addTo(own.owner.token, url, { language: 'en', label: 'English', format: 'vtt', source: vtt('One') })
      ).json(),
    );
    const again = CaptionTrackSchema.parse(
      (
        await addTo(own.owner.token, url, { language: 'EN', label: 'English', format: 'vtt', source: vtt('Two') })
      ).json(),
    );
    expect(again.id).toBe(first.id);
    expect(await cuesOf(own.owner.token, url)).toEqual([['English', 'EN', ['Two']]]);
    expect(
      CaptionTrackSchema.parse(
        (
          await addTo(own.owner.token, url, {
            language: 'en-GB',
            label: 'English',
            format: 'vtt',
            source: vtt('Three'),
          })
        ).json(),
      ).label,
    ).toBe('English (en-GB)');
    expect((await cuesOf(own.owner.token, url)).map(([label]) => label)).toEqual(['English', 'English (en-GB)']);
    // Changing a track to the language of another is refused.
    const before = await snapshot(t);
    expect(
      await t.api({
        method: 'PUT',
        url: `/captions/${first.id}`,
        token: own.owner.token,
        payload: { language: 'en-gb', label: 'English', cues: [] },
      }),
    ).toBeApiError(409, /already has a caption track in en-gb/);
    expect(await snapshot(t)).toEqual(before);
  });
});
