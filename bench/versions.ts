/**
 * The history of an artifact (decision 049): 1,000 saves of one artifact of 15 long answers
 * (2,500 characters each), each changing one answer, through the API of the real server; the bytes
 * the history's table takes then (its rows, compressed values and indexes), and the latency of the
 * history's reads at 1,000 versions: the newest page of `GET /artifacts/{id}/versions` and one
 * version whole (`GET …/versions/{n}`, rebuilt from a full copy and the changes after it).
 */
import path from 'node:path';
import { openPostgres } from '../server/src/db/client.ts';
import { runningEmbedded } from '../server/src/db/embedded.ts';
import { longAnswerMaker } from '../server/test/longAnswers.ts';
import { BENCH_PASSWORD, SMALL } from './generate.ts';
import { percentile, prepareDataDir, startServer, token } from './support.ts';

export interface VersionsResult {
  saves: number;
  /** Growth of the history's table (with its TOAST table and indexes), bytes. */
  historyBytes: number;
  /** The answers of one save as sent, bytes. */
  answersBytes: number;
  saveP50: number;
  saveP99: number;
  listP50: number;
  listP99: number;
  versionP50: number;
  versionP99: number;
}

const QUESTIONS = 15;
const ANSWER_CHARS = 2500;
/** A new answer of `ANSWER_CHARS` characters of plain words. */
const answerMaker = () => longAnswerMaker(11, ANSWER_CHARS);

const ms = (value: number) => Math.round(value * 10) / 10;

/** Saves one artifact `saves` times on the small data set, then reads its history `reads` times. */
export async function runVersionsBench(saves = 1000, reads = 200): Promise<VersionsResult> {
  const { dataDir, emails } = await prepareDataDir(SMALL);
  const server = await startServer(dataDir);
  const connection = runningEmbedded(path.join(dataDir, 'db'));
  if (!connection) throw new Error('the embedded database of the running server cannot be reached');
  const db = openPostgres(connection, { max: 1 });
  try {
    const jwt = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const answer = answerMaker();
    const structure = Array.from({ length: QUESTIONS }, (_, i) => ({
      key: `q${i}`,
      text: `Question ${i}`,
      type: 'longText',
    }));
    let responses: Record<string, string> = Object.fromEntries(structure.map((q) => [q.key, answer()]));
    const { rows } = await db.query<{ id: number }>(
      `WITH p AS (
         INSERT INTO portfolios (owner_id, name, structure) SELECT id, 'History bench', $2::jsonb FROM users WHERE email = $1 RETURNING id, structure
       )
       INSERT INTO artifacts (portfolio_id, structure, responses, parking_lot) SELECT p.id, p.structure, $3::jsonb, true FROM p RETURNING id`,
      [emails.teacherEmail, JSON.stringify(structure), JSON.stringify(responses)],
    );
    const id = rows[0]!.id;
    const size = async () =>
      Number((await db.query<{ n: string }>(`SELECT pg_total_relation_size('artifact_versions') AS n`)).rows[0]!.n);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${jwt}` };
    const before = await size();
    const saveTimes: number[] = [];
    for (let i = 0; i < saves; i += 1) {
      responses = { ...responses, [`q${i % QUESTIONS}`]: answer() };
      const started = performance.now();
      const res = await fetch(`${server.url}/api/v1/artifacts/${id}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ responses }),
      });
      if (!res.ok) throw new Error(`PUT /artifacts/${id}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      saveTimes.push(performance.now() - started);
    }
    const historyBytes = (await size()) - before;
    const timed = async (url: string) => {
      const times: number[] = [];
      for (let i = 0; i < reads + 20; i += 1) {
        const started = performance.now();
        const res = await fetch(`${server.url}/api/v1${url}`, { headers: { authorization: `Bearer ${jwt}` } });
        if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
        await res.arrayBuffer();
        times.push(performance.now() - started);
      }
      // The first reads warm the connection and the caches.
      return times.slice(20);
    };
    const list = await timed(`/artifacts/${id}/versions`);
    const version = await timed(`/artifacts/${id}/versions/${saves - 1}`);
    return {
      saves,
      historyBytes,
      answersBytes: Buffer.byteLength(JSON.stringify(responses)),
      saveP50: ms(percentile(saveTimes, 50)),
      saveP99: ms(percentile(saveTimes, 99)),
      listP50: ms(percentile(list, 50)),
      listP99: ms(percentile(list, 99)),
      versionP50: ms(percentile(version, 50)),
      versionP99: ms(percentile(version, 99)),
    };
  } finally {
    await db.close();
    await server.stop();
  }
}
