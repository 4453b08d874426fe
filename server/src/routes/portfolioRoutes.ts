import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ArtifactCreateBodySchema,
  ArtifactListResponseSchema,
  ArtifactMergeBodySchema,
  ArtifactSchema,
  ArtifactUpdateBodySchema,
  NestedArtifactParamsSchema,
} from '#schemas/artifact';
import { IdParamsSchema } from '#schemas/common';
import {
  PortfolioCreateBodySchema,
  PortfolioDeleteResponseSchema,
  PortfolioListQuerySchema,
  PortfolioListResponseSchema,
  PortfolioSchema,
  PortfolioSummarySchema,
  PortfolioUpdateBodySchema,
} from '#schemas/portfolio';
import { saveClientOf } from '../http/auth.ts';
import { USER_LIMITS } from '../http/userLimits.ts';
import { errorResponses } from './errorResponses.ts';

/** Personal portfolios and their artifacts. Protected. */
export const portfolioRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['portfolios'];

  app.get(
    '/portfolios',
    {
      schema: {
        tags,
        summary: 'My portfolios (researchers: all, or one owner)',
        querystring: PortfolioListQuerySchema,
        response: { 200: PortfolioListResponseSchema, ...errorResponses },
      },
    },
    async (request) =>
      app.services.portfolios.list(
        request.user,
        request.query.owner !== undefined ? { owner: request.query.owner } : {},
      ),
  );

  app.get(
    '/portfolios/:id',
    {
      schema: {
        tags,
        summary: 'One portfolio with its artifacts',
        params: IdParamsSchema,
        response: { 200: PortfolioSchema, ...errorResponses },
      },
    },
    async (request) => app.services.portfolios.get(request.user, request.params.id),
  );

  // The web's table: the structure once, the artifacts in brief (the route above keeps its shape).
  app.get(
    '/portfolios/:id/summary',
    {
      schema: {
        tags,
        summary: 'One portfolio with its artifacts in brief (web)',
        params: IdParamsSchema,
        response: { 200: PortfolioSummarySchema, ...errorResponses },
      },
    },
    async (request) => app.services.portfolios.summary(request.user, request.params.id),
  );

  app.post(
    '/portfolios',
    {
      schema: {
        tags,
        summary: 'Create a portfolio from the template',
        body: PortfolioCreateBodySchema,
        response: { 200: PortfolioSchema, ...errorResponses },
      },
    },
    async (request) => app.services.portfolios.create(request.user, request.body),
  );

  app.put(
    '/portfolios/:id',
    {
      schema: {
        tags,
        summary: 'Change a portfolio',
        params: IdParamsSchema,
        body: PortfolioUpdateBodySchema,
        response: { 200: PortfolioSchema, ...errorResponses },
      },
    },
    async (request) => app.services.portfolios.update(request.user, request.params.id, request.body),
  );

  app.delete(
    '/portfolios/:id',
    {
      schema: {
        tags,
        summary: 'Delete an empty portfolio',
        params: IdParamsSchema,
        response: { 200: PortfolioDeleteResponseSchema, ...errorResponses },
      },
    },
    async (request) => app.services.portfolios.remove(request.user, request.params.id),
  );

  for (const url of ['/portfolios/:id/artifacts/responses', '/portfolios/:id/artifacts/responses/']) {
    app.post(
      url,
      {
        schema: {
          tags,
          summary: 'Create an artifact (in the parking lot unless parkingLot is false)',
          params: IdParamsSchema,
          body: ArtifactCreateBodySchema,
          response: { 200: ArtifactSchema, ...errorResponses },
          ...(url.endsWith('/') ? { hide: true } : {}),
        },
        config: USER_LIMITS.saves,
      },
      async (request) =>
        app.services.artifacts.create(request.user, request.params.id, request.body, saveClientOf(request)),
    );
  }

  app.put(
    '/portfolios/:id/artifacts/:artifactId/responses',
    {
      schema: {
        tags,
        summary: 'Merge answers into an artifact (null deletes a key)',
        params: NestedArtifactParamsSchema,
        body: ArtifactMergeBodySchema,
        response: { 200: ArtifactSchema, ...errorResponses },
      },
      config: USER_LIMITS.saves,
    },
    async (request) =>
      app.services.artifacts.merge(
        request.user,
        request.params.id,
        request.params.artifactId,
        request.body,
        saveClientOf(request),
      ),
  );

  app.get(
    '/artifacts',
    { schema: { tags, summary: 'My artifacts', response: { 200: ArtifactListResponseSchema, ...errorResponses } } },
    async (request) =>
      (await app.services.artifacts.listOwn(request.user)).map((a) => ({ ...a, portfolio: a.portfolio.id })),
  );

  app.get(
    '/artifacts/:id',
    {
      schema: {
        tags,
        summary: 'One artifact',
        params: IdParamsSchema,
        response: { 200: ArtifactSchema, ...errorResponses },
      },
    },
    async (request) => app.services.artifacts.get(request.user, request.params.id),
  );

  app.put(
    '/artifacts/:id',
    {
      schema: {
        tags,
        summary: 'Save an artifact (parkingLot false submits it)',
        params: IdParamsSchema,
        body: ArtifactUpdateBodySchema,
        response: { 200: ArtifactSchema, ...errorResponses },
      },
      config: USER_LIMITS.saves,
    },
    async (request) =>
      app.services.artifacts.update(request.user, request.params.id, request.body, saveClientOf(request)),
  );

  app.delete(
    '/artifacts/:id',
    {
      schema: {
        tags,
        summary: 'Delete an artifact',
        params: IdParamsSchema,
        response: { 200: ArtifactSchema, ...errorResponses },
      },
    },
    async (request) => app.services.artifacts.remove(request.user, request.params.id),
  );
};
