/**
 * The database floor of the API benchmark: a bare Fastify server whose routes run the same
 * repository functions the real services run for each read route, on a `pg` pool connected to
 * the real server's embedded PostgreSQL, and send what they return as JSON. No token, no policy,
 * no schema validation or serialisation, no security headers: what is left is the SQL and the
 * HTTP a request that reads the database cannot do without.
 *
 * The real server keeps signed-in principals in memory (`principalCache.ts`), so under a steady
 * load its requests run only their route's statements, and so do these routes; `GET /users/me`,
 * which then reads nothing, runs the two statements of a principal lookup (`authService.
 * authenticate`: the account `USER_ID` and its session `SESSION_ID`), the least a request that
 * must read the caller from the database runs. `DB` holds the connection settings (JSON);
 * `QUERY_COUNT_HEADER=true` adds `x-query-count`.
 */
import Fastify from 'fastify';
import { openPostgres, queryCounter } from '../server/src/db/client.ts';
import { artifactRepository } from '../server/src/repositories/artifactRepository.ts';
import { portfolioFields, portfolioRepository } from '../server/src/repositories/portfolioRepository.ts';
import { sessionRepository } from '../server/src/repositories/sessionRepository.ts';
import { discussionRepository } from '../server/src/repositories/discussionRepository.ts';
import { sharedArtifactRepository } from '../server/src/repositories/sharedArtifactRepository.ts';
import {
  sharedPortfolioFields,
  sharedPortfolioRepository,
} from '../server/src/repositories/sharedPortfolioRepository.ts';
import { userRepository } from '../server/src/repositories/userRepository.ts';

const db = openPostgres(JSON.parse(process.env['DB']!) as Parameters<typeof openPostgres>[0]);
const userId = Number(process.env['USER_ID']);
const sessionId = process.env['SESSION_ID'] || null;

const app = Fastify({ logger: false });

if (process.env['QUERY_COUNT_HEADER'] === 'true') {
  app.addHook('onRequest', async () => {
    queryCounter.enterWith({ count: 0 });
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-query-count', String(queryCounter.getStore()?.count ?? 0));
  });
}

const idOf = (params: unknown) => Number((params as { id: string }).id);

app.get('/api/v1/users/me', async () => {
  const [record] = await Promise.all([
    userRepository.findById(db, userId),
    sessionId ? sessionRepository.findOpen(db, sessionId, userId) : null,
  ]);
  return record!.user;
});

app.get('/api/v1/portfolios', async () => portfolioRepository.list(db, userId));

app.get('/api/v1/portfolios/:id', async (request) => {
  const p = (await portfolioRepository.findById(db, idOf(request.params)))!;
  const artifacts = await artifactRepository.load(db, { portfolioIds: [p.id] });
  return { ...portfolioFields(p), artifacts };
});

app.get('/api/v1/shared-portfolios', async () => sharedPortfolioRepository.list(db, { memberId: userId }));

app.get('/api/v1/shared-portfolios/:id', async (request) => {
  const sp = (await sharedPortfolioRepository.findById(db, idOf(request.params)))!;
  const [people, artifacts] = await Promise.all([
    sharedPortfolioRepository.peopleOf(db, [sp.id]),
    sharedArtifactRepository.load(db, { portfolioIds: [sp.id] }),
  ]);
  return {
    ...sharedPortfolioFields(sp, people),
    sharedArtifacts: artifacts,
    commentCount: artifacts.reduce((n, a) => n + a.commentCount, 0),
  };
});

app.get('/api/v1/shared-artifacts/:id', async (request) => {
  const id = idOf(request.params);
  const artifact = (await sharedArtifactRepository.findRecord(db, id))!;
  await sharedPortfolioRepository.findById(db, artifact.sharedPortfolioId);
  const [[one], comments, reactions] = await Promise.all([
    sharedArtifactRepository.load(db, { ids: [id] }),
    discussionRepository.comments(db, id),
    discussionRepository.reactions(db, id),
  ]);
  return { ...one!, comments, reactions };
});

app.addHook('onClose', () => db.close());
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void app.close().then(() => process.exit(0)));

await app.listen({ port: Number(process.env['PORT']), host: '127.0.0.1' });
process.stdout.write('ready\n');
