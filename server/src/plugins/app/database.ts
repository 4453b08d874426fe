import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { queryCounter, type Db } from '../../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database (opened and migrated by the caller, closed by it after the app). */
    db: Db;
  }
}

/** The database of every service, and (diagnostics for the benchmarks) how many statements each request ran. */
async function database(app: FastifyInstance, options: { db: Db }): Promise<void> {
  app.decorate('db', options.db);
  if (app.config.queryCountHeader) {
    app.addHook('onRequest', async () => {
      queryCounter.enterWith({ count: 0 });
    });
    app.addHook('onSend', async (_request, reply) => {
      reply.header('x-query-count', String(queryCounter.getStore()?.count ?? 0));
    });
  }
}

export default fastifyPlugin(database, { name: 'database' });
