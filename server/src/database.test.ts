import { describe, expect, it } from 'vitest';
import { testConfig } from '../test/helper.ts';
import { openDatabase } from './database.ts';
import { migrationFiles } from './db/migrate.ts';

describe('openDatabase (embedded)', () => {
  // Made here, not inside the tests: their folders are removed after the file.
  const withDemo = testConfig({ demoData: true });
  const withoutDemo = testConfig({ demoData: false });

  it('migrates, adds the template and the demo data once; a restart keeps the data and applies nothing', async () => {
    const config = withDemo;
    const messages: string[] = [];
    const log = { info: (msg: string) => messages.push(msg) };

    const first = await openDatabase(config, log);
    try {
      const users = await first.query<{ email: string }>('SELECT email FROM users ORDER BY id');
      expect(users.rows.map((r) => r.email)).toEqual(['researcher@example.org', 'lead@example.org', 'teacher@example.org', 'teacher2@example.org']);
      expect((await first.query('SELECT 1 FROM portfolios WHERE id = 1')).rows).toHaveLength(1);
    } finally {
      await first.close();
    }
    expect(messages).toEqual([`database migrated: ${migrationFiles().join(', ')}`, 'demo data added']);

    messages.length = 0;
    const second = await openDatabase(config, log);
    try {
      const { rows } = await second.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      expect(rows[0]!.n).toBe(4);
    } finally {
      await second.close();
    }
    expect(messages).toEqual([]);
  });

  it('adds no demo data when DEMO_DATA is false', async () => {
    const db = await openDatabase(withoutDemo, { info: () => undefined });
    try {
      expect((await db.query('SELECT 1 FROM users')).rows).toEqual([]);
      expect((await db.query('SELECT 1 FROM portfolios WHERE id = 1')).rows).toHaveLength(1);
    } finally {
      await db.close();
    }
  });
});
