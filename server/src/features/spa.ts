import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { registerSpa } from '../http/spa.ts';

/** The single-page app: its built files, its page for every other address, and the 404 of the rest. */
async function spa(app: FastifyInstance): Promise<void> {
  registerSpa(app, app.config);
}

export const spaFeature = fastifyPlugin(spa, { name: 'spa', dependencies: ['services'] });
