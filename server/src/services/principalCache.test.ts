import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { Db } from '../db/client.ts';
import { createResearcher, createTeacher, TEST_PASSWORD } from '../../test/factories.ts';
import { CapturingMailer, createTestDb, testAppOf, testConfig, type TestApp } from '../../test/helper.ts';
import { until } from '../../test/until.ts';

/**
 * The signed-in principal is cached per process. Two servers on one database share this
 * process's own change events; a change made by plain SQL stands for another process (the admin
 * command, a second server), which only PostgreSQL's notifications can tell: it must be heard
 * within a second.
 */
describe('the per-process principal cache', async () => {
  const db = await createTestDb();
  // Each answer says how many SQL statements its request ran (`x-query-count`).
  const config = testConfig({ queryCountHeader: true });
  const start = async (): Promise<TestApp> => {
    const app = await buildApp({ config, db, mailer: new CapturingMailer(), logger: false });
    await app.ready();
    afterAll(() => app.close());
    return testAppOf(app, db, new CapturingMailer(), config);
  };
  const a = await start();
  const b = await start();

  const login = async (t: TestApp, email: string): Promise<string> => {
    const res = await t.api({
      method: 'POST',
      url: '/auth/local',
      payload: { identifier: email, password: TEST_PASSWORD },
      remoteAddress: '10.9.8.7',
    });
    expect(res).toHaveStatus(200);
    return (res.json() as { jwt: string }).jwt;
  };
  const me = (t: TestApp, token: string) => t.api({ method: 'GET', url: '/users/me', token });

  /** Milliseconds until `t` refuses `token` (fails after 1 s). */
  const refusedWithin = async (t: TestApp, token: string): Promise<number> => {
    const started = Date.now();
    await until(async () => (await me(t, token)).statusCode === 401, {
      timeout: 1000,
      every: 5,
      what: 'the token refused',
    });
    return Date.now() - started;
  };

  /** SQL statements one authenticated request runs. */
  const statements = async (t: TestApp, token: string): Promise<number> => {
    const res = await me(t, token);
    expect(res).toHaveStatus(200);
    return Number(res.headers['x-query-count']);
  };

  it('authenticates a known session with no SQL at all', async () => {
    const teacher = await createTeacher(a);
    const token = await login(a, teacher.user.email);
    expect(await me(b, token)).toHaveStatus(200);
    expect(await statements(b, token)).toBe(0);
  });

  /** A teacher signed in through `a`, whose session both servers have cached. */
  const knownToBoth = async () => {
    const teacher = await createTeacher(a);
    const token = await login(a, teacher.user.email);
    expect(await me(a, token)).toHaveStatus(200);
    expect(await me(b, token)).toHaveStatus(200);
    return { teacher, token };
  };

  it('ends a signed-out session at once, on both servers', async () => {
    const { token } = await knownToBoth();
    expect(await a.api({ method: 'POST', url: '/auth/logout', token, payload: {} })).toHaveStatus(200);
    expect(await me(a, token)).toBeApiError(401);
    expect(await refusedWithin(b, token)).toBeLessThan(1000);
  });

  it('refuses a blocked account at once, on both servers', async () => {
    const researcher = await createResearcher(a);
    const { teacher, token } = await knownToBoth();
    expect(
      await b.api({
        method: 'PUT',
        url: `/users/${teacher.user.id}`,
        token: researcher.token,
        payload: { blocked: true },
      }),
    ).toHaveStatus(200);
    expect(await me(b, token)).toBeApiError(401);
    expect(await refusedWithin(a, token)).toBeLessThan(1000);
  });

  it('hears changes made by another process (plain SQL) within a second, through PostgreSQL', async () => {
    const teacher = await createTeacher(a);
    const token = await login(a, teacher.user.email);
    expect(await me(a, token)).toHaveStatus(200);
    await db.query('UPDATE users SET session_epoch = session_epoch + 1 WHERE id = $1', [teacher.user.id]);
    expect(await refusedWithin(a, token)).toBeLessThan(1000);
  });

  it('caches nothing while it cannot hear changes', async () => {
    const silent: Db = {
      ...db,
      query: db.query.bind(db),
      exec: db.exec.bind(db),
      transaction: db.transaction.bind(db),
      close: async () => undefined,
      // Its own connections (the job engine's) are still possible; only listening is not.
      settings: db.settings!.bind(db),
    };
    const app = await buildApp({ config, db: silent, mailer: new CapturingMailer(), logger: false });
    await app.ready();
    afterAll(() => app.close());
    const t = testAppOf(app, silent, new CapturingMailer(), config);
    const teacher = await createTeacher(a);
    const token = await login(t, teacher.user.email);
    expect(await me(t, token)).toHaveStatus(200);
    expect(await statements(t, token)).toBeGreaterThan(0);
  });
});
