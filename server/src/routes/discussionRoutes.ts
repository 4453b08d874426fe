import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '#schemas/common';
import {
  AvailableReactionsSchema,
  CommentBodySchema,
  CommentResponseSchema,
  CommentSchema,
  CommentUpdateBodySchema,
  ReactionBodySchema,
  ReactionSchema,
} from '#schemas/sharedArtifact';
import { z } from 'zod';
import { USER_LIMITS } from '../http/userLimits.ts';
import { sharedErrorResponses as errors } from './errorResponses.ts';

/** Comments and reactions on shared artifacts. Protected. */
export const discussionRoutes: FastifyPluginAsyncZod = async (app) => {
  const s = app.services;
  const tags = ['comments and reactions'];

  app.get(
    '/comments',
    {
      schema: {
        tags,
        summary: 'Comments in my shared portfolios',
        response: { 200: z.array(CommentSchema), ...errors },
      },
    },
    async (request) => s.discussion.comments(request.user),
  );
  app.post(
    '/comments',
    {
      config: USER_LIMITS.discussion,
      schema: {
        tags,
        summary: 'Comment (1–2500 characters)',
        body: CommentBodySchema,
        response: { 200: CommentResponseSchema, ...errors },
      },
    },
    async (request) =>
      s.discussion.comment(request.user, request.body.sharedArtifact, request.body.text, request.body.moment),
  );
  app.put(
    '/comments/:id',
    {
      schema: {
        tags,
        summary: 'Edit my comment',
        params: IdParamsSchema,
        body: CommentUpdateBodySchema,
        response: { 200: CommentResponseSchema, ...errors },
      },
    },
    async (request) =>
      s.discussion.editComment(request.user, request.params.id, request.body.text, request.body.moment),
  );
  app.delete(
    '/comments/:id',
    {
      schema: {
        tags,
        summary: 'Delete my comment',
        params: IdParamsSchema,
        response: { 200: CommentResponseSchema, ...errors },
      },
    },
    async (request) => s.discussion.deleteComment(request.user, request.params.id),
  );
  app.get(
    '/reactions/available',
    { schema: { tags, summary: 'The four reactions', response: { 200: AvailableReactionsSchema } } },
    async () => s.discussion.available(),
  );
  app.get(
    '/reactions',
    {
      schema: {
        tags,
        summary: 'Reactions in my shared portfolios',
        response: { 200: z.array(ReactionSchema), ...errors },
      },
    },
    async (request) => s.discussion.reactions(request.user),
  );
  app.post(
    '/reactions',
    {
      config: USER_LIMITS.discussion,
      schema: {
        tags,
        summary: 'React (idempotent per value)',
        body: ReactionBodySchema,
        response: { 200: ReactionSchema, ...errors },
      },
    },
    async (request) =>
      s.discussion.react(request.user, request.body.sharedArtifact, request.body.value, request.body.moment),
  );
  app.delete(
    '/reactions/:id',
    {
      schema: {
        tags,
        summary: 'Remove my reaction',
        params: IdParamsSchema,
        response: { 200: ReactionSchema, ...errors },
      },
    },
    async (request) => s.discussion.unreact(request.user, request.params.id),
  );
};
