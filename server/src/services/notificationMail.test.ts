import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import {
  COMPLETE_RESPONSES,
  createLead,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  type TestUser,
} from '../../test/factories.ts';
import { CapturingMailer, createTestDb, testAppOf, testConfig, type TestApp } from '../../test/helper.ts';
import { MAIL_WINDOW_MS } from './notificationService.ts';

/**
 * Immediate notification e-mail is coalesced per recipient and thread (decision 020): one member
 * commenting 60 times in a minute sends the artifact's owner one e-mail now and the rest together
 * in the next one, after the window, even with two server processes on one database. Time moves
 * through the scheduler's `now`; nothing sleeps.
 */
describe('immediate notification e-mail, per recipient and thread', async () => {
  const db = await createTestDb();
  const config = testConfig();
  // Both processes hand their mail to one server, which keeps the order it got them in.
  const mail = new CapturingMailer();
  const a = testAppOf(await buildApp({ config, db, mailer: mail, logger: false }), db, mail, config);
  const b = testAppOf(await buildApp({ config, db, mailer: mail, logger: false }), db, mail, config);
  await a.app.ready();
  await b.app.ready();
  afterAll(() => Promise.all([a.app.close(), b.app.close()]));

  const lead = await createLead(a);
  const owner = await createTeacher(a);
  const colleague = await createTeacher(a);
  const sp = await createSharedPortfolio(a, lead, { name: 'Grade 5 PLC', members: [owner, colleague] });
  const sa = await createSharedArtifact(a, sp, owner, {
    responses: { ...COMPLETE_RESPONSES, artifactName: 'Group work' },
  });
  const other = await createSharedArtifact(a, sp, owner, {
    responses: { ...COMPLETE_RESPONSES, artifactName: 'Exit tickets' },
  });

  const comment = (t: TestApp, who: TestUser, artifact: { id: number }, text: string) =>
    t.api({ method: 'POST', url: '/comments', token: who.token, payload: { sharedArtifact: artifact.id, text } });
  /** Everything either process has sent to the owner. */
  const ownerMail = () => mail.sent.filter((m) => m.to === owner.user.email);
  /** Lets both processes finish what the comments' notices started. */
  const settle = () =>
    Promise.all([a.app.services.notifications.deliverNow(), b.app.services.notifications.deliverNow()]);
  const waiting = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM notifications WHERE user_id = $1 AND mail_state = 'pending'`,
          [owner.user.id],
        )
      ).rows[0]!.n,
    );

  it('60 comments in a minute from one member: one e-mail now, the other 59 in the next one after the window', async () => {
    for (let i = 1; i <= 60; i += 1)
      expect(await comment(i % 2 ? a : b, colleague, sa, `Comment ${i}`)).toHaveStatus(200);
    // Another thread of the same recipient is not held back by this one (its author is the lead:
    // the colleague used up the 60 comments a minute one person may write, on every node together).
    expect(await comment(a, colleague, other, 'One too many')).toBeApiError(429, /^Too many attempts/);
    expect(await comment(a, lead, other, 'On the other artifact')).toHaveStatus(200);
    await settle();
    await settle();
    const now = ownerMail();
    expect(now).toHaveLength(2);
    expect(now.find((m) => m.subject.includes('“Exit tickets”'))?.subject).toBe(
      `${lead.user.username} commented on your artifact “Exit tickets” in Grade 5 PLC`,
    );
    // The first comment goes out at once (on a busy machine the first few may already be in when
    // the first delivery runs: then they share that mail).
    const first = now.find((m) => m.subject.includes('“Group work”'))!;
    const inFirst = first.subject.startsWith(colleague.user.username)
      ? 1
      : Number(/^(\d+) new comments on “Group work”/.exec(first.subject)?.[1]);
    expect(inFirst).toBeGreaterThanOrEqual(1);
    expect(inFirst).toBeLessThan(60);
    const rest = 60 - inFirst;
    expect(await waiting()).toBe(rest);

    // The scheduler within the window (on either process) sends nothing more.
    await Promise.all([
      a.app.services.notifications.tick(new Date(Date.now() + MAIL_WINDOW_MS / 2)),
      b.app.services.notifications.tick(new Date(Date.now() + MAIL_WINDOW_MS / 2)),
    ]);
    expect(ownerMail()).toHaveLength(2);

    // After the window: both processes' schedulers run at once, one e-mail carries the rest.
    const after = new Date(Date.now() + MAIL_WINDOW_MS + 60_000);
    await Promise.all([a.app.services.notifications.tick(after), b.app.services.notifications.tick(after)]);
    const next = ownerMail().slice(2);
    expect(next).toHaveLength(1);
    expect(next[0]!.subject).toBe(`${rest} new comments on “Group work” in Grade 5 PLC`);
    expect(next[0]!.text.match(/^- .* commented on your artifact “Group work”/gm)).toHaveLength(rest);
    expect(next[0]!.links.at(-2)).toMatch(/^http:\/\/portal\.test\/unsubscribe\?token=/);
    expect(await waiting()).toBe(0);
  });

  it('a comment after that waits for the window of the last e-mail, then goes out on its own', async () => {
    // The scheduler's time moved on by windows since: so has the minute of the comment limit.
    await db.query('DELETE FROM rate_limit_counters');
    expect(await comment(a, colleague, sa, 'One more')).toHaveStatus(200);
    await settle();
    const before = ownerMail().length;
    // The last e-mail went out at the previous test's `after`: still within its window here.
    await a.app.services.notifications.tick(new Date(Date.now() + MAIL_WINDOW_MS + 120_000));
    expect(ownerMail()).toHaveLength(before);
    await a.app.services.notifications.tick(new Date(Date.now() + 2 * MAIL_WINDOW_MS + 120_000));
    expect(
      ownerMail()
        .slice(before)
        .map((m) => m.subject),
    ).toEqual([`${colleague.user.username} commented on your artifact “Group work” in Grade 5 PLC`]);
  });

  it('a coalesced e-mail that cannot be sent waits and goes out with the next run', async () => {
    for (let i = 0; i < 3; i += 1) expect(await comment(b, lead, other, `Lead ${i}`)).toHaveStatus(200);
    await settle();
    const before = ownerMail().length;
    const later = new Date(Date.now() + 3 * MAIL_WINDOW_MS);
    mail.fail = true;
    await a.app.services.notifications.tick(later);
    mail.fail = false;
    expect(ownerMail()).toHaveLength(before);
    await a.app.services.notifications.tick(later);
    expect(
      ownerMail()
        .slice(before)
        .map((m) => m.subject),
    ).toEqual(['3 new comments on “Exit tickets” in Grade 5 PLC']);
  });
});
