import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ResearchExportListResponseSchema, ResearchExportQuerySchema } from '#schemas/researchExport';
import { HttpError } from '../errors.ts';
import { bearerToken } from '../http/auth.ts';
import { clientGone } from '../http/clientGone.ts';
import { CROSS_SITE_MESSAGE } from '../http/webSession.ts';

/**
 * A package opened by a link of another site would run an export (and fill the audit log) in the
 * researcher's name: a download authenticated by the session cookie must come from the portal's
 * own pages or be typed into the address bar.
 */
function refuseCrossSiteDownload(request: FastifyRequest): void {
  if (bearerToken(request)) return;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') throw new HttpError(403, 'cross_site_request', CROSS_SITE_MESSAGE);
}

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
      refuseCrossSiteDownload(request);
      // A client that goes away before the end stops the work.
      const { stream, fileName } = await app.services.research.exportPackage(request.user, request.query, clientGone(reply));
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
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
