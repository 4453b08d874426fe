import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '#schemas/common';
import {
  LeaveBodySchema,
  MembersQuerySchema,
  MembersResponseSchema,
  RemoveUserParamsSchema,
  SharedPortfolioBodySchema,
  SharedPortfolioListItemSchema,
  SharedPortfolioListResponseSchema,
  SharedPortfolioSchema,
  SharedPortfolioSummarySchema,
} from '#schemas/sharedPortfolio';
import { sharedErrorResponses as errors } from './errorResponses.ts';

/** Shared portfolios and their members. Protected. */
export const sharedPortfolioRoutes: FastifyPluginAsyncZod = async (app) => {
  const s = app.services;
  const tags = ['shared portfolios'];

  app.get(
    '/shared-portfolios',
    {
      schema: {
        tags,
        summary: 'My shared portfolios (researchers: all)',
        response: { 200: SharedPortfolioListResponseSchema, ...errors },
      },
    },
    async (request) => s.shared.list(request.user),
  );
  app.get(
    '/shared-portfolios/:id',
    {
      schema: {
        tags,
        summary: 'One shared portfolio with its artifacts',
        params: IdParamsSchema,
        response: { 200: SharedPortfolioSchema, ...errors },
      },
    },
    async (request) => s.shared.get(request.user, request.params.id),
  );
  // The web's pages: the structure once, the artifacts in brief (the route above keeps its shape).
  app.get(
    '/shared-portfolios/:id/summary',
    {
      schema: {
        tags,
        summary: 'One shared portfolio with its artifacts in brief (web)',
        params: IdParamsSchema,
        response: { 200: SharedPortfolioSummarySchema, ...errors },
      },
    },
    async (request) => s.shared.summary(request.user, request.params.id),
  );
  app.post(
    '/shared-portfolios',
    {
      schema: {
        tags,
        summary: 'Create a shared portfolio (PLC leads, researchers)',
        body: SharedPortfolioBodySchema,
        response: { 200: SharedPortfolioSchema, ...errors },
      },
    },
    async (request) => s.shared.create(request.user, request.body),
  );
  app.put(
    '/shared-portfolios/:id',
    {
      schema: {
        tags,
        summary: 'Change a shared portfolio (owner, researchers)',
        params: IdParamsSchema,
        body: SharedPortfolioBodySchema,
        response: { 200: SharedPortfolioSchema, ...errors },
      },
    },
    async (request) => s.shared.update(request.user, request.params.id, request.body),
  );
  app.delete(
    '/shared-portfolios/:id',
    {
      schema: {
        tags,
        summary: 'Delete an empty shared portfolio',
        params: IdParamsSchema,
        response: { 200: SharedPortfolioListItemSchema, ...errors },
      },
    },
    async (request) => s.shared.remove(request.user, request.params.id),
  );
  app.get(
    '/shared-portfolios/:id/members',
    {
      schema: {
        tags,
        summary: 'Members, pending invitees and (with ?search=) people to invite',
        params: IdParamsSchema,
        querystring: MembersQuerySchema,
        response: { 200: MembersResponseSchema, ...errors },
      },
    },
    async (request) => s.shared.members(request.user, request.params.id, request.query.search),
  );
  app.post(
    '/shared-portfolios/:id/leave',
    {
      schema: {
        tags,
        summary: 'Leave (the owner names a new owner)',
        params: IdParamsSchema,
        body: LeaveBodySchema,
        response: { 200: SharedPortfolioSchema, ...errors },
      },
    },
    async (request) => s.shared.leave(request.user, request.params.id, request.body?.newOwnerId),
  );
  app.post(
    '/shared-portfolios/:id/remove-user/:userId',
    {
      schema: {
        tags,
        summary: 'Remove a member (owner, researchers)',
        params: RemoveUserParamsSchema,
        response: { 200: SharedPortfolioSchema, ...errors },
      },
    },
    async (request) => s.shared.removeUser(request.user, request.params.id, request.params.userId),
  );
};
