import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPLETE_RESPONSES,
  createLead,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  snapshot,
  teamQuestion,
  type TestUser,
} from '../factories.ts';
import { buildTestApp } from '../helper.ts';
import { decodeNotification, decodeSharedArtifact, list, map } from './dartModels.ts';
import { MobileApp } from './mobileApp.ts';

/**
 * The mobile app's contract (`mobile-contract.md`) where the app meets other people's work: a
 * shared artifact edited in the app and on the web at once, and the Notifications tab. Every
 * answer is decoded by the rules of the app's Dart models; the call-by-call session is
 * `mobileContract.test.ts`.
 */

const t = await buildTestApp({ ffmpegPath: '/nonexistent' });
let app: MobileApp;
afterAll(() => t.app.close());

let teacher: TestUser;
let lead: TestUser;
let colleague: TestUser;
let plc: { id: number };

beforeAll(async () => {
  app = await MobileApp.connect(t);
  teacher = await createTeacher(t);
  lead = await createLead(t);
  colleague = await createTeacher(t);
  plc = await createSharedPortfolio(t, lead, { members: [teacher, colleague], questions: [teamQuestion('team1')] });
});

describe('two members edit one shared artifact: one in the app, one on the web', () => {
  it('the later save gets the warning or a 409, never a silent overwrite', async () => {
    const sa = await createSharedArtifact(t, plc, colleague, { responses: { ...COMPLETE_RESPONSES, team1: 'First' } });
    const nested = `/shared-portfolios/${plc.id}/shared-artifacts/${sa.id}`;
    const phone = app.anotherPhone();
    phone.token = (
      await t.api({
        method: 'POST',
        url: '/auth/local',
        payload: { identifier: teacher.user.email, password: teacher.password },
      })
    ).json().jwt;
    // The app's local copy is the version from its last refresh.
    const local = Date.parse(sa.updated_at);

    // The teacher opens the editor on the phone: the gate check says ok.
    expect(map(await phone.ok('GET', `${nested}/gate-check?updated_at=${local}`), 'gate')['type']).toBe('ok');
    // Meanwhile the colleague saves on the web (with the version the page loaded).
    const web = await t.api({
      method: 'PUT',
      url: `/shared-artifacts/${sa.id}`,
      token: colleague.token,
      payload: { responses: { ...COMPLETE_RESPONSES, team1: 'Web edit' }, updated_at: sa.updated_at },
    });
    expect(web).toHaveStatus(200);
    // The phone's save (no updated_at) would overwrite unseen work: 409, nothing changed.
    const before = await snapshot(t);
    const refused = await phone.call('PUT', `${nested}/responses`, { responses: { team1: 'Phone edit' } });
    expect(refused.status).toBe(409);
    expect(await snapshot(t)).toEqual(before);
    // Opened again, the gate check warns (a word the app knows); continuing acknowledges the web edit.
    const warning = map(await phone.ok('GET', `${nested}/gate-check?updated_at=${local}`), 'gate');
    expect(warning['type']).toBe('warning');
    expect(warning['message']).toMatch(/^This artifact has recently been saved by someone else at /);
    const phoneSave = decodeSharedArtifact(
      await phone.ok('PUT', `${nested}/responses`, { responses: { team1: 'Phone edit' } }),
      'phone save',
    );
    expect(map(phoneSave['responses'], 'responses')['team1']).toBe('Phone edit');
    // Now the web page, still on its old version, is refused in turn.
    const stale = await t.api({
      method: 'PUT',
      url: `/shared-artifacts/${sa.id}`,
      token: colleague.token,
      payload: { responses: { ...COMPLETE_RESPONSES, team1: 'Web again' }, updated_at: web.json().updated_at },
    });
    expect(stale).toBeApiError(409, /^This artifact has recently been saved by someone else at /);
  });
});

describe('the app’s Notifications tab', () => {
  it('#10 and #38 list notifications the app decodes and opens, and mark one read', async () => {
    const phone = app;
    phone.token = teacher.token;
    const mine = await createSharedArtifact(t, plc, teacher);
    expect(
      await t.api({
        method: 'POST',
        url: '/comments',
        token: colleague.token,
        payload: { sharedArtifact: mine.id, text: 'What a result!' },
      }),
    ).toHaveStatus(200);
    expect(
      await t.api({
        method: 'POST',
        url: '/reactions',
        token: lead.token,
        payload: { sharedArtifact: mine.id, value: '⭐' },
      }),
    ).toHaveStatus(200);
    const items = list(await phone.ok('GET', '/messages/list'), 'messages/list').map((n, i) =>
      decodeNotification(n, `messages[${i}]`),
    );
    expect(items).toHaveLength(2);
    const destination = JSON.parse(String(items[0]!['destination'])) as {
      params: { sharedArtifactId: number; sharedPortfolioId: number };
    };
    expect(destination.params).toEqual({ sharedArtifactId: mine.id, sharedPortfolioId: plc.id });
    expect(items.map((n) => n['viewed'])).toEqual([false, false]);
    map(
      await phone.ok('POST', '/messages/mark-as-read', { messageId: String(items[1]!['messageId']) }),
      'mark-as-read',
    );
    const after = list(await phone.ok('GET', '/messages/list'), 'messages/list').map((n, i) =>
      decodeNotification(n, `messages[${i}]`),
    );
    expect(after.map((n) => n['viewed'])).toEqual([false, true]);
  });
});
