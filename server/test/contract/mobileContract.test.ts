import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createComment,
  createLead,
  createPortfolio,
  createReaction,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  teamQuestion,
  type TestUser,
} from '../factories.ts';
import { ffmpegVideo, pdfDocument, pngImage } from '../files.ts';
import { buildTestApp } from '../helper.ts';
import {
  decodeArtifact,
  decodeAuthUser,
  decodeComment,
  decodeContact,
  decodeFile,
  decodeLoginBundle,
  decodeNotification,
  decodePortfolio,
  decodeReaction,
  decodeSharedArtifact,
  decodeSharedPortfolio,
  list,
  map,
  mediaUrls,
} from './dartModels.ts';
import { APP_STANDARDS } from './appStandards.ts';
import { MobileApp } from './mobileApp.ts';

/**
 * The mobile app's contract (`mobile-contract.md`), replayed call by call over real HTTP as the
 * unchangeable app sends each one, every answer decoded by the rules of the app's Dart models,
 * and every media address fetched without credentials. Ids in paths and bodies are the app's
 * Strings. The calls run in the order a teacher's session makes them. Editing one shared
 * artifact from the app and the web, and the Notifications tab: `mobileCollaboration.test.ts`.
 */

/** Android's `Platform.operatingSystemVersion`: the kernel string. */
const ANDROID_OS_VERSION =
  'Linux 5.15.123-android14-11-g1b7bd2a4a1d2-ab11287455 #1 SMP PREEMPT Fri Jan 5 09:49:13 UTC 2024 (Android 14; Pixel 7 Build/UQ1A.240105.004)';

const t = await buildTestApp({ ffmpegPath: '/nonexistent' });
let app: MobileApp;
afterAll(() => t.app.close());

let teacher: TestUser;
let lead: TestUser;
let colleague: TestUser;
let plc: { id: number };
let otherPlc: { id: number };
let discussed: { id: number };
let portfolio: { id: number };

beforeAll(async () => {
  app = await MobileApp.connect(t);
  teacher = await createTeacher(t);
  lead = await createLead(t);
  colleague = await createTeacher(t);
  plc = await createSharedPortfolio(t, lead, { members: [teacher, colleague], questions: [teamQuestion('team1')] });
  otherPlc = await createSharedPortfolio(t, lead, { members: [teacher] });
  portfolio = await createPortfolio(t, teacher, { grades: ['5th'], subject: 'Science', topic: 'Forces' });
  // A discussed shared artifact with a file: the login bundle of the teacher carries comments and reactions.
  discussed = await createSharedArtifact(t, plc, colleague);
  await createComment(t, discussed, colleague, 'Look at the second run.');
  await createComment(t, discussed, lead, 'Great evidence!');
  await createReaction(t, discussed, lead, '⭐');
  await createReaction(t, discussed, colleague, '🔖');
});

/** Fetches every media address of an answer as the app does (no credentials) and expects the file. */
async function fetchEveryMediaUrl(answer: unknown): Promise<number> {
  const urls = mediaUrls(answer);
  for (const url of urls) {
    const res = await app.fetch(`${app.assetsRoot}${url}`);
    expect(res.status, `GET ${url} without credentials`).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
  }
  return urls.length;
}

describe('the mobile app, call by call', () => {
  let artifactId = '';
  let sharedCopyId = '';

  it('#1 logs in: the whole offline cache decodes, comments and reactions included, and every media address works without a session', async () => {
    // A file in the discussed artifact, so that the bundle carries media addresses.
    app.token = (
      await t.api({
        method: 'POST',
        url: '/auth/local',
        payload: { identifier: colleague.user.email, password: colleague.password },
      })
    ).json().jwt;
    await app.upload(
      `/shared-portfolios/${plc.id}/shared-artifacts/${discussed.id}/images`,
      'IMG_2041.jpg',
      await pngImage(1200, 900),
    );
    app.token = null;

    const res = await app.call('POST', '/auth/local', { identifier: teacher.user.email, password: teacher.password });
    expect(res.status).toBe(200);
    const bundle = decodeLoginBundle(res.json());
    app.token = bundle['jwt'] as string;
    const user = map(bundle['user'], 'user');
    expect(list(user['comments'], 'comments')).toHaveLength(2);
    expect(list(user['reactions'], 'reactions')).toHaveLength(2);
    expect(list(user['sharedArtifacts'], 'sharedArtifacts').map((a) => map(a, 'a')['id'])).toContain(discussed.id);
    expect(await fetchEveryMediaUrl(bundle)).toBeGreaterThanOrEqual(4);
  });

  it('#2 registers the push token of an Android 14 phone (its long osVersion never fails the login)', async () => {
    const answer = await app.ok('POST', '/messages/register-token', {
      platform: 'android',
      osVersion: ANDROID_OS_VERSION,
      fcmToken: `fcm-${teacher.user.id}`,
      devMode: false,
    });
    expect(map(answer, 'register-token')).toEqual({});
  });

  it('#3–#10 refreshes every list and the user', async () => {
    list(await app.ok('GET', '/portfolios'), 'portfolios').forEach((p, i) => decodePortfolio(p, `portfolios[${i}]`));
    list(await app.ok('GET', '/shared-portfolios'), 'shared-portfolios').forEach((p, i) =>
      decodeSharedPortfolio(p, `shared-portfolios[${i}]`),
    );
    list(await app.ok('GET', '/artifacts'), 'artifacts').forEach((a, i) => decodeArtifact(a, `artifacts[${i}]`));
    const sharedArtifacts = await app.ok('GET', '/shared-artifacts');
    list(sharedArtifacts, 'shared-artifacts').forEach((a, i) => decodeSharedArtifact(a, `shared-artifacts[${i}]`));
    expect(await fetchEveryMediaUrl(sharedArtifacts)).toBeGreaterThanOrEqual(4);
    expect(
      list(await app.ok('GET', '/comments'), 'comments').map((c, i) => decodeComment(c, `comments[${i}]`)),
    ).toHaveLength(2);
    expect(
      list(await app.ok('GET', '/reactions'), 'reactions').map((r, i) => decodeReaction(r, `reactions[${i}]`)),
    ).toHaveLength(2);
    decodeAuthUser(await app.ok('GET', '/users/me'), 'users/me');
    list(await app.ok('GET', '/messages/list'), 'messages/list').forEach((n, i) =>
      decodeNotification(n, `messages[${i}]`),
    );
  });

  it('#11 refreshes its token', async () => {
    const answer = map(await app.ok('POST', '/token/refresh', {}), 'token/refresh');
    expect(typeof answer['jwt']).toBe('string');
    app.token = answer['jwt'] as string;
  });

  it('#12–#13 creates an artifact with the wizard, edits it, submits it; the 57 standards come back exactly as sent', async () => {
    const created = map(await app.ok('POST', `/portfolios/${portfolio.id}/artifacts/responses`, {}), 'new artifact');
    artifactId = String(created['id']);
    const structure = (await t.api({ method: 'GET', url: `/portfolios/${portfolio.id}`, token: teacher.token })).json()
      .structure;
    const path = `/portfolios/${portfolio.id}/artifacts/${artifactId}/responses`;
    const first = decodeArtifact(
      await app.ok('PUT', path, { responses: { artifactName: 'Ramp race', unitDay: 3 }, parkingLot: true, structure }),
      'page 1',
    );
    expect(first['parkingLot']).toBe(true);
    const second = decodeArtifact(
      await app.ok('PUT', path, {
        responses: { learningGoal: 'Friction slows a rolling ball.', standardFrameworkTags: APP_STANDARDS },
        parkingLot: true,
      }),
      'page 2',
    );
    expect(map(second['responses'], 'responses')['standardFrameworkTags']).toEqual(APP_STANDARDS);
    decodeArtifact(await app.ok('PUT', path, { responses: { nextSteps: 'Try ice.' } }), 'editor');
    const submitted = decodeArtifact(await app.ok('PUT', path, { parkingLot: false }), 'submit');
    expect(submitted['parkingLot']).toBe(false);
    const stored = (await t.api({ method: 'GET', url: `/artifacts/${artifactId}`, token: teacher.token })).json();
    expect(stored.responses.standardFrameworkTags).toEqual(APP_STANDARDS);
  });

  it('#14–#19 uploads an image, a document of any type and a video, views each as the app does, and deletes them', async () => {
    const base = `/portfolios/${portfolio.id}/artifacts/${artifactId}`;
    const files = {
      images: await app.upload(`${base}/images`, 'image_picker_4F2A.jpg', await pngImage(1600, 1200)),
      documents: await app.upload(
        `${base}/documents`,
        'Class discussion.m4a',
        Buffer.from([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x4d, 0x34, 0x41, 0x20, 1, 2, 3]),
      ),
      videos: await app.upload(`${base}/videos`, 'VID_20261125.mp4', ffmpegVideo()),
    };
    const records = {
      images: decodeFile(files.images, 'images', 'images'),
      documents: decodeFile(files.documents, 'documents', 'documents'),
      videos: decodeFile(files.videos, 'videos', 'videos'),
    };
    for (const [kind, record] of Object.entries(records))
      decodeArtifact(record['parentArtifact'], `${kind}.parentArtifact`);
    // M1: Image.network of the medium and thumbnail formats.
    for (const format of ['medium', 'thumbnail'] as const) {
      const image = await app.fetch(
        `${app.assetsRoot}${(map(records.images['formats'], 'formats')[format] as { url: string }).url}`,
      );
      expect(image.status).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
    }
    // M2, M3: the viewer pages, `.html` appended after the whole url.
    for (const kind of ['images', 'videos'] as const) {
      const page = await app.fetch(`${app.assetsRoot}/${kind}${records[kind]['url'] as string}.html`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body.toString()).toContain(kind === 'images' ? '<img src="' : '<video controls');
    }
    // M4: the system browser downloads the document.
    const doc = await app.fetch(`${app.assetsRoot}${records.documents['url'] as string}`);
    expect(doc.status).toBe(200);
    expect(doc.headers['content-type']).toBe('application/octet-stream');
    expect(doc.headers['content-disposition']).toMatch(/^attachment;/);
    for (const [kind, answer] of Object.entries(files)) {
      const deleted = map(await app.ok('DELETE', `${base}/${kind}/${map(answer, kind)['id']}`), `delete ${kind}`);
      decodeArtifact(deleted['parentArtifact'], `delete ${kind}.parentArtifact`);
    }
  });

  it('#20–#28 copies the artifact into its PLC, passes the gate check, saves without updated_at, uploads and deletes there', async () => {
    const copy = decodeSharedArtifact(
      await app.ok('POST', `/artifacts/${artifactId}/share`, { sharedPortfolioId: String(plc.id) }),
      'share',
    );
    sharedCopyId = String(copy['id']);
    const nested = `/shared-portfolios/${plc.id}/shared-artifacts/${sharedCopyId}`;
    const gate = map(
      await app.ok('GET', `${nested}/gate-check?updated_at=${Date.parse(copy['updated_at'] as string)}`),
      'gate-check',
    );
    expect(gate).toMatchObject({ type: 'ok' });
    expect(typeof gate['message']).toBe('string');
    const saved = decodeSharedArtifact(
      await app.ok('PUT', `${nested}/responses`, { responses: { team1: 'Our team tried it twice.' } }),
      'shared save',
    );
    expect(map(saved['responses'], 'responses')['team1']).toBe('Our team tried it twice.');
    const uploads = {
      images: await app.upload(`${nested}/images`, 'photo.jpg', await pngImage(300, 200)),
      documents: await app.upload(`${nested}/documents`, 'Lesson plan.pages', pdfDocument()),
      videos: await app.upload(`${nested}/videos`, 'clip.mov', ffmpegVideo()),
    };
    for (const [kind, answer] of Object.entries(uploads) as [keyof typeof uploads, unknown][]) {
      const record = decodeFile(answer, kind, kind);
      decodeSharedArtifact(record['parentSharedArtifact'], `${kind}.parentSharedArtifact`);
      expect(await fetchEveryMediaUrl(record)).toBeGreaterThan(0);
    }
    for (const [kind, answer] of Object.entries(uploads)) {
      const deleted = map(
        await app.ok('DELETE', `${nested}/${kind}/${map(answer, kind)['id']}`),
        `delete shared ${kind}`,
      );
      decodeSharedArtifact(deleted['parentSharedArtifact'], `delete shared ${kind}.parentSharedArtifact`);
    }
  });

  it('#29 copies the shared artifact into another shared portfolio', async () => {
    const copy = decodeSharedArtifact(
      await app.ok('POST', `/shared-artifacts/${sharedCopyId}/share`, { sharedPortfolioId: String(otherPlc.id) }),
      'copy',
    );
    expect(copy['id']).not.toBe(Number(sharedCopyId));
  });

  it('#30–#34 comments, edits, deletes; reacts and un-reacts', async () => {
    const comment = decodeComment(
      await app.ok('POST', '/comments', { sharedArtifact: String(discussed.id), text: 'We saw the same!' }),
      'comment',
    );
    expect(map(comment['sharedArtifact'], 'sharedArtifact')['id']).toBe(discussed.id);
    expect(map(comment['owner'], 'owner')['id']).toBe(teacher.user.id);
    decodeComment(
      await app.ok('PUT', `/comments/${comment['id']}`, { text: 'We saw the same, twice!' }),
      'edited comment',
    );
    map(await app.ok('DELETE', `/comments/${comment['id']}`), 'deleted comment');
    const reaction = decodeReaction(
      await app.ok('POST', '/reactions', { sharedArtifact: String(discussed.id), value: '⭐' }),
      'reaction',
    );
    map(await app.ok('DELETE', `/reactions/${reaction['id']}`), 'deleted reaction');
  });

  it('#35–#39 deletes the shared copy and the artifact, reads the contact, marks read and signs out', async () => {
    map(await app.ok('DELETE', `/shared-artifacts/${sharedCopyId}`), 'deleted shared artifact');
    map(await app.ok('DELETE', `/artifacts/${artifactId}`), 'deleted artifact');
    decodeContact(await app.ok('GET', '/contact'));
    map(await app.ok('POST', '/messages/mark-as-read', { messageId: '1' }), 'mark-as-read');
    map(await app.ok('POST', '/messages/unregister-token', { fcmToken: `fcm-${teacher.user.id}` }), 'unregister-token');
    const { rows } = await t.db.query('SELECT 1 FROM push_tokens WHERE user_id = $1', [teacher.user.id]);
    expect(rows).toEqual([]);
  });
});
