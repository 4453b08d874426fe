import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendCsv } from '../export/csv.ts';
import { SHARED_CSV_HEADER, TEACHER_CSV_HEADER } from '../services/exportService.ts';

/**
 * CSV summaries for researchers. They are plain downloads (a link in the page), so the session
 * cookie counts as well as the bearer header; they change nothing.
 */
export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['exports'];
  app.get('/portfolios/export', { schema: { tags, summary: 'teacher portfolios.csv (researchers)', produces: ['text/csv'] } }, async (request, reply) =>
    sendCsv(reply, 'teacher portfolios.csv', TEACHER_CSV_HEADER, app.services.exports.teacherPortfolios(request.user)),
  );
  app.get('/shared-portfolios/export', { schema: { tags, summary: 'shared portfolios.csv (researchers)', produces: ['text/csv'] } }, async (request, reply) =>
    sendCsv(reply, 'shared portfolios.csv', SHARED_CSV_HEADER, app.services.exports.sharedPortfolios(request.user)),
  );
};
