/**
 * The comparison point of the API benchmark: a bare Fastify server answering the same URLs with
 * the same JSON bodies, held in memory (`BODIES` names a JSON file of url → body text).
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const bodies = JSON.parse(readFileSync(process.env['BODIES']!, 'utf8')) as Record<string, string>;
const app = Fastify({ logger: false });
for (const [url, body] of Object.entries(bodies)) {
  app.get(url, async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
}
await app.listen({ port: Number(process.env['PORT']), host: '127.0.0.1' });
process.stdout.write('ready\n');
