import { createVerify, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { NotificationPreferencesSchema, UnsubscribeResponseSchema } from '#schemas/notifications';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { UNSUBSCRIBE_TTL_DAYS, UnsubscribeTokens } from '../security/unsubscribeTokens.ts';
import {
  COMPLETE_RESPONSES,
  createLead,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  TEST_PASSWORD,
  type TestUser,
} from '../../test/factories.ts';
import { TestClock } from '../../test/clock.ts';
import { CapturingMailer, createTestDb, testAppOf, testConfig, type TestApp } from '../../test/helper.ts';
import { until } from '../../test/until.ts';
import { HEARTBEAT_MS, STREAMS_PER_USER } from './notificationHub.ts';
import { NOTIFICATION_MESSAGES } from './notificationService.ts';

/**
 * Delivery across server processes: two apps on one database stand for two processes. The
 * stream of one hears what the other records (LISTEN/NOTIFY) and ends when its session ends
 * anywhere; digests go out once whichever process runs them; unsubscribe links; push to FCM.
 */

/** Every message any of the processes sent. */
const mailboxes: CapturingMailer[] = [];

async function start(db: Db, config: Config): Promise<TestApp> {
  const mail = new CapturingMailer();
  mailboxes.push(mail);
  const clock = new TestClock();
  const app = await buildApp({ config, db, mailer: mail, logger: false, clock });
  await app.ready();
  afterAll(() => app.close());
  return testAppOf(app, db, mail, config, clock);
}

/** Waits until `check` holds (fails after 3 s). */
const waitFor = (check: () => boolean | Promise<boolean>, what: string) => until(check, { what, timeout: 3000 });

/** An event-stream client: the unread counts and keep-alives received, and whether the server ended it. */
function openStream(base: string, token: string) {
  const counts: number[] = [];
  const state = { status: 0, ended: false, keepAlives: 0, headers: {} as http.IncomingHttpHeaders };
  let buffer = '';
  const request = http.get(
    `${base}/api/v1/notifications/stream`,
    { headers: { authorization: `Bearer ${token}` } },
    (res) => {
      state.status = res.statusCode ?? 0;
      state.headers = res.headers;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block === ': keep-alive') state.keepAlives += 1;
          const data = /^event: unread\ndata: (.*)$/m.exec(block);
          if (data) counts.push((JSON.parse(data[1]!) as { unread: number }).unread);
        }
      });
      res.on('end', () => (state.ended = true));
      res.on('close', () => (state.ended = true));
    },
  );
  request.on('error', () => (state.ended = true));
  afterAll(() => request.destroy());
  return { counts, state, close: () => request.destroy() };
}

describe('two server processes on one database', async () => {
  const db = await createTestDb();
  const config = testConfig();
  const a = await start(db, config);
  const b = await start(db, config);
  await a.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;

  const lead = await createLead(a);
  const owner = await createTeacher(a);
  const colleague = await createTeacher(a);
  const sp = await createSharedPortfolio(a, lead, { name: 'Grade 5 PLC', members: [owner, colleague] });
  const sa = await createSharedArtifact(a, sp, owner, {
    responses: { ...COMPLETE_RESPONSES, artifactName: 'Group work' },
  });
  const comment = (t: TestApp, who: TestUser, text: string) =>
    t.api({ method: 'POST', url: '/comments', token: who.token, payload: { sharedArtifact: sa.id, text } });
  const login = async (t: TestApp, who: TestUser) =>
    (
      await t.api({
        method: 'POST',
        url: '/auth/local',
        payload: { identifier: who.user.email, password: TEST_PASSWORD },
        remoteAddress: '10.1.2.3',
      })
    ).json().jwt as string;

  it('a stream on one process hears, at once, a comment recorded by the other; reading on either updates it', async () => {
    const stream = openStream(base, owner.token);
    await waitFor(() => stream.counts.length === 1, 'the first count');
    expect(stream.state.status).toBe(200);
    expect(String(stream.state.headers['content-type'])).toMatch(/^text\/event-stream/);
    expect(stream.counts).toEqual([0]);

    expect(await comment(b, colleague, 'Heard across processes?')).toHaveStatus(200);
    await waitFor(() => stream.counts.at(-1) === 1, 'the count after the comment');
    expect(
      await b.api({ method: 'POST', url: '/notifications/read', token: owner.token, payload: { all: true } }),
    ).toHaveStatus(200);
    await waitFor(() => stream.counts.at(-1) === 0, 'the count after reading');
    stream.close();
  });

  it('a stream ends when its session is signed out on the other process', async () => {
    const token = await login(b, owner);
    const stream = openStream(base, token);
    await waitFor(() => stream.counts.length === 1, 'the first count');
    const other = openStream(base, owner.token);
    await waitFor(() => other.counts.length === 1, 'the first count of a stream without a session');
    expect(await b.api({ method: 'POST', url: '/auth/logout', token })).toHaveStatus(200);
    await waitFor(() => stream.state.ended, 'the end of the signed-out stream');
    // Another sign-in of the same person keeps its stream: once the checks of the sign-out are
    // done, the next heartbeat still reaches it.
    await a.app.services.notificationHub.settled();
    a.clock.advance(HEARTBEAT_MS);
    await waitFor(() => other.state.keepAlives > 0, 'a keep-alive on the other stream');
    expect(other.state.ended).toBe(false);
    other.close();
  });

  it(`keeps at most ${STREAMS_PER_USER} streams per person: a further one ends the oldest`, async () => {
    const streams: ReturnType<typeof openStream>[] = [];
    for (let i = 0; i <= STREAMS_PER_USER; i += 1) {
      const s = openStream(base, colleague.token);
      await waitFor(() => s.counts.length === 1, `stream ${i}`);
      streams.push(s);
    }
    await waitFor(() => streams[0]!.state.ended, 'the end of the oldest stream');
    expect(streams.slice(1).every((s) => !s.state.ended)).toBe(true);
    for (const s of streams) s.close();
  });

  it('refuses a stream without a session', async () => {
    const res = await fetch(`${base}/api/v1/notifications/stream`);
    expect(res.status).toBe(401);
  });

  it('sends each daily digest once, whichever process runs it and however often', async () => {
    // Reactions and edits go to the digest by default.
    expect(
      await b.api({
        method: 'POST',
        url: '/reactions',
        token: colleague.token,
        payload: { sharedArtifact: sa.id, value: '⭐' },
      }),
    ).toHaveStatus(200);
    expect(
      await a.api({
        method: 'POST',
        url: '/reactions',
        token: lead.token,
        payload: { sharedArtifact: sa.id, value: '🌉' },
      }),
    ).toHaveStatus(200);
    const digests = () =>
      [...a.mail.sent, ...b.mail.sent].filter((m) => m.subject.startsWith('Your PracticeFolio digest'));
    // Today's items wait for tomorrow's digest.
    expect(await a.app.services.notifications.runDigests(new Date())).toBe(0);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const sent = await Promise.all([
      a.app.services.notifications.runDigests(tomorrow),
      b.app.services.notifications.runDigests(tomorrow),
    ]);
    expect(sent[0] + sent[1]).toBe(1);
    expect(digests()).toHaveLength(1);
    const digest = digests()[0]!;
    expect(digest.to).toBe(owner.user.email);
    expect(digest.text).toContain(
      `2 new reactions to your artifact “Group work” in Grade 5 PLC, the latest from ${lead.user.username}`,
    );
    expect(digest.links.at(-1)).toMatch(/^http:\/\/portal\.test\/unsubscribe\?token=/);
    // Again, or after a restart (a third process): nothing more.
    const c = await start(db, config);
    expect(await c.app.services.notifications.runDigests(tomorrow)).toBe(0);
    expect(await a.app.services.notifications.runDigests(tomorrow)).toBe(0);
    expect(digests()).toHaveLength(1);
  });

  it('a digest that cannot be sent is tried again on the next run', async () => {
    expect(
      await a.api({
        method: 'POST',
        url: '/reactions',
        token: owner.token,
        payload: { sharedArtifact: (await createSharedArtifact(a, sp, colleague)).id, value: '⭐' },
      }),
    ).toHaveStatus(200);
    const later = new Date(Date.now() + 3 * 86_400_000);
    a.mail.fail = true;
    expect(await a.app.services.notifications.runDigests(later)).toBe(0);
    a.mail.fail = false;
    expect(await a.app.services.notifications.runDigests(later)).toBe(1);
    expect(a.mail.lastTo(colleague.user.email)?.subject).toBe('Your PracticeFolio digest: one update');
  });

  describe('unsubscribe links', () => {
    const tokens = new UnsubscribeTokens(config.jwtSecret);
    const post = (token: unknown) => b.api({ method: 'POST', url: '/unsubscribe', payload: { token } as object });
    const prefs = async (who: TestUser) =>
      NotificationPreferencesSchema.parse(
        (await a.api({ method: 'GET', url: '/notification-preferences', token: who.token })).json(),
      ).email;

    it('the link of a mail works without a session and turns off that kind', async () => {
      const commentMail = () =>
        mailboxes.flatMap((m) => m.sent).find((m) => m.to === owner.user.email && m.subject.includes('commented'));
      const before = mailboxes.flatMap((m) => m.sent).length;
      // On another artifact: the owner was mailed about the first one's comments a moment ago (one mail per thread per window).
      const fresh = await createSharedArtifact(a, sp, owner);
      expect(
        await a.api({
          method: 'POST',
          url: '/comments',
          token: colleague.token,
          payload: { sharedArtifact: fresh.id, text: 'A comment to mail.' },
        }),
      ).toHaveStatus(200);
      await waitFor(() => mailboxes.flatMap((m) => m.sent).length > before, 'the comment e-mail');
      const mail = commentMail()!;
      const link = new URL(mail.links[1]!);
      expect(link.pathname).toBe('/unsubscribe');
      const res = await post(link.searchParams.get('token'));
      expect(res).toHaveStatus(200);
      const [local] = owner.user.email.split('@');
      expect(UnsubscribeResponseSchema.parse(res.json())).toEqual({
        kind: 'comment',
        email: `${local![0]}***@example.org`,
      });
      expect((await prefs(owner)).comment).toBe('off');
      expect((await prefs(owner)).reply).toBe('immediately');
    });

    it('an "all" link turns every kind off', async () => {
      const res = await post(tokens.sign(colleague.user.id, 'all'));
      expect(res.json()).toMatchObject({ kind: 'all' });
      expect(Object.values(await prefs(colleague)).every((v) => v === 'off')).toBe(true);
    });

    it('a tampered or expired link is refused with a clear message and changes nothing', async () => {
      const before = await prefs(lead);
      const good = tokens.sign(lead.user.id, 'mention');
      const parts = good.split('.');
      const tampered = [
        [parts[0], String(owner.user.id), ...parts.slice(2)].join('.'),
        [...parts.slice(0, 2), 'all', ...parts.slice(3)].join('.'),
        [...parts.slice(0, 3), String(Number(parts[3]) + 86_400), parts[4]].join('.'),
        `${good.slice(0, -2)}${good.endsWith('AA') ? 'BB' : 'AA'}`,
        new UnsubscribeTokens('another secret of at least thirty-two characters').sign(lead.user.id, 'mention'),
        'not a token',
      ];
      for (const token of tampered) expect(await post(token)).toBeApiError(400, NOTIFICATION_MESSAGES.invalidToken);
      const expired = tokens.sign(lead.user.id, 'mention', Date.now() - (UNSUBSCRIBE_TTL_DAYS + 1) * 86_400_000);
      expect(await post(expired)).toBeApiError(400, NOTIFICATION_MESSAGES.expiredToken);
      expect(await post('')).toBeApiError(400);
      expect(await b.api({ method: 'POST', url: '/unsubscribe', payload: { token: good, kind: 'all' } })).toBeApiError(
        400,
      );
      expect(await prefs(lead)).toEqual(before);
    });
  });
});

describe('push through FCM HTTP v1', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const sends: {
    auth: string | undefined;
    message: { token: string; notification: { title: string; body: string }; data: Record<string, string> };
  }[] = [];
  let tokenRequests = 0;
  const fake = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/token') {
        const params = new URLSearchParams(body);
        const [header, claims, signature] = (params.get('assertion') ?? '').split('.');
        const valid = createVerify('RSA-SHA256')
          .update(`${header}.${claims}`)
          .verify(publicKey, signature ?? '', 'base64url');
        const payload = JSON.parse(Buffer.from(claims ?? '', 'base64url').toString()) as { iss: string; scope: string };
        tokenRequests += 1;
        const ok =
          valid &&
          params.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
          payload.iss === 'push@demo.iam.gserviceaccount.com';
        res
          .writeHead(ok ? 200 : 400, { 'content-type': 'application/json' })
          .end(JSON.stringify(ok ? { access_token: 'fake-access', expires_in: 3600 } : { error: 'invalid_grant' }));
        return;
      }
      if (req.url === '/v1/projects/demo-project/messages:send') {
        const { message } = JSON.parse(body) as (typeof sends)[number];
        sends.push({ auth: req.headers.authorization, message });
        if (message.token === 'dead-token') {
          res
            .writeHead(404, { 'content-type': 'application/json' })
            .end(
              JSON.stringify({ error: { code: 404, status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] } }),
            );
        } else
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ name: 'projects/demo-project/messages/1' }));
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));
  const fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;

  const db = await createTestDb();
  const t = await start(
    db,
    testConfig({
      fcm: {
        projectId: 'demo-project',
        clientEmail: 'push@demo.iam.gserviceaccount.com',
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        endpoint: fakeUrl,
        tokenUrl: `${fakeUrl}/token`,
      },
    }),
  );

  it('sends a comment to every phone of the artifact owner and forgets a token FCM no longer knows', async () => {
    const lead = await createLead(t);
    const owner = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [owner] });
    const sa = await createSharedArtifact(t, sp, owner, {
      responses: { ...COMPLETE_RESPONSES, artifactName: 'Ramps' },
    });
    for (const fcmToken of ['live-token', 'dead-token']) {
      expect(
        await t.api({
          method: 'POST',
          url: '/messages/register-token',
          token: owner.token,
          payload: { platform: 'ios', fcmToken },
        }),
      ).toHaveStatus(200);
    }
    expect(
      await t.api({
        method: 'POST',
        url: '/comments',
        token: lead.token,
        payload: { sharedArtifact: sa.id, text: 'Push me.' },
      }),
    ).toHaveStatus(200);
    await waitFor(() => sends.length === 2, 'two sends');
    expect(tokenRequests).toBe(1);
    expect(sends.every((s) => s.auth === 'Bearer fake-access')).toBe(true);
    const live = sends.find((s) => s.message.token === 'live-token')!.message;
    expect(live.notification).toEqual({
      title: 'New comment',
      body: `${lead.user.username} commented on your artifact “Ramps” in ${sp.name}`,
    });
    expect(JSON.parse(live.data['destination']!)).toEqual({
      screen: 'sharedArtifact',
      params: { sharedArtifactId: sa.id, sharedPortfolioId: sp.id },
    });
    await waitFor(
      async () =>
        (await t.db.query('SELECT fcm_token FROM push_tokens WHERE user_id = $1', [owner.user.id])).rows.length === 1,
      'the dead token forgotten',
    );
    const { rows } = await t.db.query<{ fcm_token: string }>('SELECT fcm_token FROM push_tokens WHERE user_id = $1', [
      owner.user.id,
    ]);
    expect(rows).toEqual([{ fcm_token: 'live-token' }]);
    // Someone without a phone gets no push; the feed works either way.
    const feed = await t.api({ method: 'GET', url: '/messages/list', token: owner.token });
    expect(feed.json()).toHaveLength(1);
  });
});
