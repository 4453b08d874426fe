import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '#schemas/common';
import {
  PortfolioRubricBodySchema,
  PortfolioRubricSchema,
  RubricCreateBodySchema,
  RubricListQuerySchema,
  RubricListSchema,
  RubricSchema,
  RubricUpdateBodySchema,
  ScoreBodySchema,
  ScoreListSchema,
  ScoreSchema,
} from '#schemas/rubrics';
import { USER_LIMITS } from '../http/userLimits.ts';
import { errorResponses as errors } from './errorResponses.ts';

/** Rubrics, the rubric a shared portfolio scores with, and scores (decision 055). Protected. */
export const rubricRoutes: FastifyPluginAsyncZod = async (app) => {
  const s = app.services;
  const tags = ['rubrics and scores'];
  const withConflict = { ...errors, 409: errors[400] };

  app.get(
    '/rubrics',
    {
      schema: {
        tags,
        summary:
          'Rubrics I can see (installation-wide and my shared portfolios’), those one shared portfolio can use, or the installation’s',
        querystring: RubricListQuerySchema,
        response: { 200: RubricListSchema, ...errors },
      },
    },
    async (request) =>
      s.rubrics.list(request.user, request.query.sharedPortfolio, request.query.scope === 'installation'),
  );
  app.post(
    '/rubrics',
    {
      config: USER_LIMITS.rubrics,
      schema: {
        tags,
        summary: 'Make a rubric for a shared portfolio (its owner, researchers) or the installation (researchers)',
        body: RubricCreateBodySchema,
        response: { 200: RubricSchema, ...withConflict },
      },
    },
    async (request) => s.rubrics.create(request.user, request.body),
  );
  app.get(
    '/rubrics/:id',
    {
      schema: {
        tags,
        summary: 'One rubric with its current criteria and levels',
        params: IdParamsSchema,
        response: { 200: RubricSchema, ...errors },
      },
    },
    async (request) => s.rubrics.get(request.user, request.params.id),
  );
  app.put(
    '/rubrics/:id',
    {
      config: USER_LIMITS.rubrics,
      schema: {
        tags,
        summary: 'Change a rubric (a rubric already used gets a new version; earlier scores keep theirs)',
        params: IdParamsSchema,
        body: RubricUpdateBodySchema,
        response: { 200: RubricSchema, ...withConflict },
      },
    },
    async (request) => s.rubrics.update(request.user, request.params.id, request.body),
  );
  app.delete(
    '/rubrics/:id',
    {
      config: USER_LIMITS.rubrics,
      schema: {
        tags,
        summary:
          'Delete a rubric nothing uses (409 while scores were given with it, or shared portfolios score with it)',
        params: IdParamsSchema,
        response: { 200: RubricSchema, ...withConflict },
      },
    },
    async (request) => s.rubrics.delete(request.user, request.params.id),
  );
  app.get(
    '/shared-portfolios/:id/rubric',
    {
      schema: {
        tags,
        summary: 'The rubric a shared portfolio scores with',
        params: IdParamsSchema,
        response: { 200: PortfolioRubricSchema, ...errors },
      },
    },
    async (request) => s.rubrics.chosen(request.user, request.params.id),
  );
  app.put(
    '/shared-portfolios/:id/rubric',
    {
      config: USER_LIMITS.rubrics,
      schema: {
        tags,
        summary: 'Choose the rubric a shared portfolio scores with (owner, researchers)',
        params: IdParamsSchema,
        body: PortfolioRubricBodySchema,
        response: { 200: PortfolioRubricSchema, ...errors },
      },
    },
    async (request) => s.rubrics.choose(request.user, request.params.id, request.body.rubric),
  );
  app.get(
    '/shared-artifacts/:id/scores',
    {
      schema: {
        tags,
        summary: 'Scores of a shared artifact (all for its owner, the portfolio’s owner and researchers; else my own)',
        params: IdParamsSchema,
        response: { 200: ScoreListSchema, ...errors },
      },
    },
    async (request) => s.scores.list(request.user, request.params.id),
  );
  app.post(
    '/scores',
    {
      config: USER_LIMITS.scores,
      schema: {
        tags,
        summary: 'Score a shared artifact (a moment of a video, or the whole artifact) on a criterion',
        body: ScoreBodySchema,
        response: { 200: ScoreSchema, ...withConflict },
      },
    },
    async (request) => s.scores.create(request.user, request.body),
  );
  app.delete(
    '/scores/:id',
    {
      config: USER_LIMITS.scores,
      schema: {
        tags,
        summary: 'Delete my score',
        params: IdParamsSchema,
        response: { 200: ScoreSchema, ...errors },
      },
    },
    async (request) => s.scores.delete(request.user, request.params.id),
  );
};
