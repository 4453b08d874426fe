import { PgBoss } from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { createTeacher } from '../test/factories.ts';
import { buildTestApp } from '../test/helper.ts';
import { runAdmin } from './admin.ts';

const t = await buildTestApp();
const admin = (...args: string[]) => runAdmin(args, t.config, t.db);

describe('npm run admin', () => {
  it('creates the first researcher with a set-password link that works', async () => {
    const out = await admin('create-researcher', 'Ada@School.example', 'Ada', 'Lovelace');
    expect(out).toMatch(
      /^Created researcher ada@school\.example \(id \d+\)\. Set-password link \(valid 7 days, also e-mailed\):\nhttp:\/\/portal\.test\/reset-password\/[A-Za-z0-9_-]{43}\?welcome=1$/,
    );
    const code = /reset-password\/([A-Za-z0-9_-]{43})/.exec(out)![1]!;
    const set = await t.api({
      method: 'POST',
      url: '/auth/reset-password',
      payload: { code, password: 'tea kettle in July', passwordConfirmation: 'tea kettle in July' },
    });
    expect(set).toHaveStatus(200);
    expect(set.json().user).toMatchObject({
      email: 'ada@school.example',
      username: 'Ada Lovelace',
      role: { type: 'researcher' },
    });
    await expect(admin('create-researcher', 'ada@school.example', 'Ada again')).rejects.toThrow('User already exists.');
    await expect(admin('create-researcher', 'not-an-address', 'X')).rejects.toThrow(
      /^Give an e-mail address and a name/,
    );
  });

  it('lists accounts, resets a password (earlier links end), blocks and unblocks', async () => {
    const teacher = await createTeacher(t);
    expect(await admin('list')).toContain(teacher.user.email);
    const first = /reset-password\/(\S+)$/.exec(await admin('reset-password', teacher.user.email))![1]!;
    const second = /reset-password\/(\S+)$/.exec(await admin('reset-password', teacher.user.email))![1]!;
    const reset = (code: string) =>
      t.api({
        method: 'POST',
        url: '/auth/reset-password',
        payload: { code, password: 'a quiet lake 9', passwordConfirmation: 'a quiet lake 9' },
      });
    expect(await reset(first)).toHaveStatus(400);
    expect(await reset(second)).toHaveStatus(200);
    expect(await admin('block', teacher.user.email)).toBe(`${teacher.user.email} is blocked; its sessions have ended.`);
    expect(await admin('list')).toMatch(new RegExp(`blocked  ${teacher.user.email.replace('.', '\\.')}`));
    expect(await t.api({ method: 'GET', url: '/users/me', token: teacher.token })).toHaveStatus(401);
    expect(await admin('unblock', teacher.user.email)).toBe(`${teacher.user.email} is unblocked.`);
    await expect(admin('block', 'nobody@school.example')).rejects.toThrow(
      'No account has the e-mail address nobody@school.example.',
    );
    await expect(admin('frobnicate')).rejects.toThrow(/^Usage: npm run admin -- <command>/);
  });

  it('lists the background jobs by kind, lists a failed one with its error, and queues it again', async () => {
    const boss = new PgBoss({ ...(t.db.settings!() as object), schema: t.app.jobs.schemaName, max: 1 });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      await boss.createQueue('test.failing', { retryLimit: 0 });
      const id = (await boss.send('test.failing', { what: 'a report' }))!;
      const [job] = await boss.fetch('test.failing');
      await boss.fail('test.failing', job!.id, new Error('the printer is on fire'));
      const out = await admin('jobs');
      expect(out).toMatch(/^kind +waiting +running +failed$/m);
      expect(out).toMatch(/^housekeeping\.prune +\d+ +\d+ +0$/m);
      expect(out).toMatch(/^test\.failing +0 +0 +1$/m);
      expect(out).toContain(`${id}  test.failing`);
      expect(out).toContain('{"what":"a report"}');
      expect(out).toContain('the printer is on fire');
      expect(await admin('jobs', 'retry', id)).toBe(`Job ${id} is queued again.`);
      expect((await boss.findJobs('test.failing', { id }))[0]?.state).toBe('retry');
      expect(await admin('jobs')).toContain('No failed jobs.');
      await expect(admin('jobs', 'retry', id)).rejects.toThrow(`No failed job has the id ${id}`);
      await expect(admin('jobs', 'retry', 'not-an-id')).rejects.toThrow('No failed job has the id not-an-id');
    } finally {
      await boss.deleteQueue('test.failing').catch(() => undefined);
      await boss.stop({ graceful: false });
    }
  });
});
