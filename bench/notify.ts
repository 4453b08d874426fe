/**
 * Notification fan-out: the SQL statements and the time of `POST /comments` in shared portfolios
 * of 5 and of 50 members, where every member hears the comment (each commented before and is
 * mentioned). The recipients are chosen and their items written in one statement (decision 020),
 * so the statements per comment must not grow with the members.
 */
import path from 'node:path';
import { openPostgres } from '../server/src/db/client.ts';
import { runningEmbedded } from '../server/src/db/embedded.ts';
import { BENCH_PASSWORD, SMALL } from './generate.ts';
import { prepareDataDir, startServer, token } from './support.ts';

export interface FanOutResult {
  members: number;
  /** Items each comment wrote. */
  recipients: number;
  statements: number;
  p50: number;
  p95: number;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** Posts `comments` comments in a 5-member and a 50-member shared portfolio of the small data set. */
export async function runNotifyBench(comments = 30): Promise<FanOutResult[]> {
  const { dataDir, emails } = await prepareDataDir(SMALL);
  const server = await startServer(dataDir, { QUERY_COUNT_HEADER: 'true' });
  const connection = runningEmbedded(path.join(dataDir, 'db'));
  if (!connection) throw new Error('the embedded database of the running server cannot be reached');
  const db = openPostgres(connection, { max: 1 });
  try {
    const jwt = await token(server.url, emails.leadEmail, BENCH_PASSWORD);
    const results: FanOutResult[] = [];
    for (const size of [5, 50]) {
      // The members (new accounts, none of them signed in), their shared portfolio and one shared artifact.
      const { rows } = await db.query<{ artifact: number; usernames: string[] }>(
        `WITH lead AS (SELECT id FROM users WHERE email = $2),
         people AS (
           INSERT INTO users (username, email, role_id, password_hash)
           SELECT 'Fan' || $1 || ' member ' || g, 'fan' || $1 || '.' || g || '@bench.example', 1, 'x' FROM generate_series(1, $1) g
           RETURNING id, username
         ), sp AS (
           INSERT INTO shared_portfolios (owner_id, name, structure, template_structure, grades, subject, topic, plc_name, plc_goals)
           SELECT lead.id, 'Fan-out ' || $1, '[]'::jsonb, '[]'::jsonb, '["5th"]', 'Science', 'Forces', 'PLC', 'Goals' FROM lead
           RETURNING id, owner_id
         ), members AS (
           INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id)
           SELECT sp.id, people.id FROM sp, people UNION ALL SELECT sp.id, sp.owner_id FROM sp
           RETURNING user_id
         ), sa AS (
           INSERT INTO shared_artifacts (shared_portfolio_id, owner_id, structure, responses, next_caption, portfolio_topic, portfolio_subject, portfolio_grades)
           SELECT sp.id, (SELECT min(id) FROM people), '[]'::jsonb, '{"artifactName":"Fan-out artifact"}'::jsonb, 1, 'Forces', 'Science', '["5th"]' FROM sp
           RETURNING id
         ), earlier AS (
           INSERT INTO comments (shared_artifact_id, owner_id, text, updated_by) SELECT sa.id, people.id, 'Earlier thought.', people.id FROM sa, people RETURNING id
         )
         SELECT (SELECT id FROM sa) AS artifact, (SELECT array_agg(username ORDER BY id) FROM people) AS usernames`,
        [size, emails.leadEmail],
      );
      const { artifact, usernames } = rows[0]!;
      const text = `Nice work. ${usernames.map((name) => `@${name}`).join(' ')}`;
      const times: number[] = [];
      let statements = 0;
      const before = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notifications');
      for (let i = 0; i < comments; i += 1) {
        const started = performance.now();
        const res = await fetch(`${server.url}/api/v1/comments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
          body: JSON.stringify({ sharedArtifact: artifact, text }),
        });
        times.push(performance.now() - started);
        if (!res.ok) throw new Error(`POST /comments: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        statements = Number(res.headers.get('x-query-count'));
      }
      const after = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notifications');
      // The first comments warm the connection and the caches.
      const sorted = times.slice(Math.min(5, comments - 1)).sort((a, b) => a - b);
      results.push({
        members: size,
        recipients: Math.round((after.rows[0]!.n - before.rows[0]!.n) / comments),
        statements,
        p50: Math.round(percentile(sorted, 50) * 10) / 10,
        p95: Math.round(percentile(sorted, 95) * 10) / 10,
      });
    }
    return results;
  } finally {
    await db.close();
    await server.stop();
  }
}
