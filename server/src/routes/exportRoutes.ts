import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendCsv } from '../export/csv.ts';
import { clientGone } from '../http/clientGone.ts';
import { SHARED_CSV_HEADER, TEACHER_CSV_HEADER } from '../services/exportService.ts';

/**
 * CSV summaries for researchers. They are plain downloads (a link in the page), so the session
 * cookie counts as well as the bearer header; they change nothing.
 */
export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['exports'];
  // A client that goes away stops the reading, as for the research package.
  app.get(
    '/portfolios/export',
    { schema: { tags, summary: 'teacher portfolios.csv (researchers)', produces: ['text/csv'] } },
    async (request, reply) => {
      const gone = clientGone(reply);
      return sendCsv(
        reply,
        'teacher portfolios.csv',
        TEACHER_CSV_HEADER,
        app.services.exports.teacherPortfolios(request.user, gone),
        gone,
      );
    },
  );
  app.get(
    '/shared-portfolios/export',
    { schema: { tags, summary: 'shared portfolios.csv (researchers)', produces: ['text/csv'] } },
    async (request, reply) => {
      const gone = clientGone(reply);
      return sendCsv(
        reply,
        'shared portfolios.csv',
        SHARED_CSV_HEADER,
        app.services.exports.sharedPortfolios(request.user, gone),
        gone,
      );
    },
  );
};
