import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { InsightsQuerySchema, InsightsSchema } from '#schemas/insights';
import { errorResponses as errors } from './errorResponses.ts';

/** The numbers behind the charts of researchers and PLC leads (decision 057). Protected. */
export const insightsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/insights',
    {
      schema: {
        tags: ['insights'],
        summary:
          'Activity per week, discussion per shared portfolio, rubric levels per criterion and inter-rater agreement (researchers: the installation; a lead: her shared portfolios)',
        querystring: InsightsQuerySchema,
        response: { 200: InsightsSchema, ...errors },
      },
    },
    async (request) => app.services.insights.get(request.user, request.query),
  );
};
