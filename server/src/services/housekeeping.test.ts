import { describe, expect, it } from 'vitest';
import { createTeacher } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { pruneExpired } from './housekeeping.ts';

describe('pruneExpired', async () => {
  const t = await buildTestApp();

  it('deletes rate-limit events older than any window and codes expired a day ago, and keeps the rest', async () => {
    const user = await createTeacher(t);
    await t.db.query(
      `INSERT INTO auth_events (kind, subject, created_at) VALUES
         ('login_failure', 'old', ms_now() - interval '25 hours'),
         ('forgot_request', 'recent', ms_now() - interval '59 minutes'),
         ('reset_failure', 'now', ms_now())`,
    );
    await t.db.query(
      `INSERT INTO password_codes (user_id, code_hash, purpose, expires_at) VALUES
         ($1, 'long-expired', 'reset', ms_now() - interval '2 days'),
         ($1, 'just-expired', 'reset', ms_now() - interval '1 hour'),
         ($1, 'open', 'welcome', ms_now() + interval '7 days')`,
      [user.user.id],
    );
    await pruneExpired(t.db);
    const events = await t.db.query<{ subject: string }>('SELECT subject FROM auth_events ORDER BY id');
    expect(events.rows.map((r) => r.subject)).toEqual(['recent', 'now']);
    const codes = await t.db.query<{ code_hash: string }>('SELECT code_hash FROM password_codes ORDER BY id');
    expect(codes.rows.map((r) => r.code_hash)).toEqual(['just-expired', 'open']);
  });
});
