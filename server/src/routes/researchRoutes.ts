import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ResearchExportListResponseSchema, ResearchExportQuerySchema } from '#schemas/researchExport';
import { bearerToken } from '../http/auth.ts';
import { clientGone } from '../http/clientGone.ts';
import { contentDisposition } from '../http/contentDisposition.ts';
import { requireSameOriginDownload } from '../http/sameOrigin.ts';

/**
 * The research export package and its audit log (researchers). The package is a download link,
 * so the session cookie counts as well as the bearer header.
 */
export const researchRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['research'];
  app.get(
    '/research/export',
    {
      compress: false,
      schema: {
        tags,
        summary: 'The research export package: a ZIP of long-format CSV files, a codebook and a README (researchers)',
        querystring: ResearchExportQuerySchema,
        produces: ['application/zip'],
      },
    },
    async (request, reply) => {
      // A package opened by a link of another site would run an export (and fill the audit log) in
      // the researcher's name.
      if (!bearerToken(request)) requireSameOriginDownload(request, app.config.publicUrl);
      // A client that goes away before the end stops the work.
      const { stream, fileName } = await app.services.research.exportPackage(request.user, request.query, clientGone(reply));
      return reply
        .type('application/zip')
        .header('content-disposition', contentDisposition('attachment', fileName))
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
  app.get(
    '/research/exports',
    {
      schema: {
        tags,
        summary: 'The audit log of research exports, latest first (researchers)',
        querystring: z.strictObject({}),
        response: { 200: ResearchExportListResponseSchema },
      },
    },
    async (request) => app.services.research.list(request.user),
  );
};
