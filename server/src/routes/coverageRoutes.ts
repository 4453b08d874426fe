import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CoverageArtifactPageSchema,
  CoverageCellQuerySchema,
  CoverageQuerySchema,
  CoverageSchema,
} from '#schemas/coverage';
import { errorResponses as errors } from './errorResponses.ts';

/** The coverage map of NGSS tags and rubric levels, and the artifacts behind a cell (decision 056). Protected. */
export const coverageRoutes: FastifyPluginAsyncZod = async (app) => {
  const s = app.services;
  const tags = ['coverage'];

  app.get(
    '/coverage',
    {
      schema: {
        tags,
        summary:
          'Coverage of the NGSS practices, crosscutting concepts or core ideas: a teacher’s (her own; researchers any), a shared portfolio’s (members, researchers) or the installation’s (researchers)',
        querystring: CoverageQuerySchema,
        response: { 200: CoverageSchema, ...errors },
      },
    },
    async (request) => s.coverage.map(request.user, request.query),
  );
  app.get(
    '/coverage/artifacts',
    {
      schema: {
        tags,
        summary: 'The artifacts behind one cell of a coverage map, newest change first, 50 a page',
        querystring: CoverageCellQuerySchema,
        response: { 200: CoverageArtifactPageSchema, ...errors },
      },
    },
    async (request) => s.coverage.cell(request.user, request.query),
  );
};
