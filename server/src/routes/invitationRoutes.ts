import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '#schemas/common';
import { InvitationCreateBodySchema, InvitationListResponseSchema, InvitationSchema } from '#schemas/invitation';
import { SharedPortfolioSchema } from '#schemas/sharedPortfolio';
import { USER_LIMITS } from '../http/userLimits.ts';
import { sharedErrorResponses as errors } from './errorResponses.ts';

/** Invitations to shared portfolios. Protected. */
export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  const s = app.services;
  const tags = ['invitations'];

  app.get(
    '/invitations',
    {
      schema: {
        tags,
        summary: 'Invitations to me',
        response: { 200: InvitationListResponseSchema, ...errors },
      },
    },
    async (request) => s.invitations.list(request.user),
  );
  app.get(
    '/invitations/:id',
    {
      schema: {
        tags,
        summary: 'One invitation',
        params: IdParamsSchema,
        response: { 200: InvitationSchema, ...errors },
      },
    },
    async (request) => s.invitations.get(request.user, request.params.id),
  );
  app.post(
    '/invitations',
    {
      config: USER_LIMITS.invitations,
      schema: {
        tags,
        summary: 'Invite a user (to) or anyone by e-mail',
        body: InvitationCreateBodySchema,
        response: { 200: InvitationSchema, ...errors },
      },
    },
    async (request) => s.invitations.create(request.user, request.body),
  );
  app.post(
    '/invitations/:id/accept',
    {
      schema: {
        tags,
        summary: 'Accept (invitee)',
        params: IdParamsSchema,
        response: { 200: SharedPortfolioSchema, ...errors },
      },
    },
    async (request) => s.invitations.accept(request.user, request.params.id),
  );
  app.delete(
    '/invitations/:id',
    {
      schema: {
        tags,
        summary: 'Decline (invitee) or cancel (owner)',
        params: IdParamsSchema,
        response: { 200: InvitationSchema, ...errors },
      },
    },
    async (request) => s.invitations.remove(request.user, request.params.id),
  );
};
