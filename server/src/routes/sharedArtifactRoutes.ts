import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '#schemas/common';
import {
  GateCheckQuerySchema,
  GateCheckResponseSchema,
  LockResponseSchema,
  ShareBodySchema,
  SharedArtifactDetailSchema,
  SharedArtifactListResponseSchema,
  SharedArtifactMediaResponseSchema,
  SharedArtifactMergeBodySchema,
  SharedArtifactUpdateBodySchema,
  SharedFileDeleteParamsSchema,
  SharedUploadParamsSchema,
  ShareResponseSchema,
  UnlockBodySchema,
} from '#schemas/sharedArtifact';
import { SharedArtifactSchema, SharedNestedParamsSchema } from '#schemas/sharedPortfolio';
import { z } from 'zod';
import { saveClientOf } from '../http/auth.ts';
import { readOneFile } from '../http/multipart.ts';
import { USER_LIMITS } from '../http/userLimits.ts';
import { errorResponses, sharedErrorResponses as errors } from './errorResponses.ts';

const tags = ['shared artifacts'];

/** The address of a route under one shared artifact of a shared portfolio. */
const nestedUrl = (path: string) => `/shared-portfolios/:id/shared-artifacts/:artifactId/${path}`;

/** The schema of a route under one shared artifact of a shared portfolio (`params`: its ids, unless given). */
function nestedSchema<Ok extends z.ZodType, Extra extends object>(summary: string, ok: Ok, extra: Extra) {
  return { schema: { tags, summary, params: SharedNestedParamsSchema, ...extra, response: { 200: ok, ...errors } } };
}

/** Shared artifacts: reading, saving, locking, their files and sharing into a shared portfolio. Protected. */
export const sharedArtifactRoutes: FastifyPluginAsyncZod = async (app) => {
  const s = app.services;

  app.get(
    nestedUrl('gate-check'),
    nestedSchema('Would a save based on this version overwrite a later one?', GateCheckResponseSchema, {
      querystring: GateCheckQuerySchema,
    }),
    async (request) =>
      s.sharedArtifacts.gateCheck(request.user, request.params.id, request.params.artifactId, request.query.updated_at),
  );
  app.post(nestedUrl('lock'), nestedSchema('Take the 15-minute edit lock', LockResponseSchema, {}), async (request) =>
    s.sharedArtifacts.lock(request.user, request.params.id, request.params.artifactId),
  );
  app.post(
    nestedUrl('unlock'),
    nestedSchema('Release the edit lock', z.object({}), { body: UnlockBodySchema }),
    async (request) =>
      s.sharedArtifacts.unlock(request.user, request.params.id, request.params.artifactId, request.body?.lock),
  );
  app.put(
    nestedUrl('responses'),
    {
      ...nestedSchema('Merge answers (null deletes a key)', SharedArtifactSchema, {
        body: SharedArtifactMergeBodySchema,
      }),
      config: USER_LIMITS.saves,
    },
    async (request) =>
      s.sharedArtifacts.merge(
        request.user,
        request.params.id,
        request.params.artifactId,
        request.body,
        saveClientOf(request),
      ),
  );
  app.post(
    nestedUrl(':kind'),
    {
      config: USER_LIMITS.uploads,
      schema: {
        tags,
        summary: 'Upload a file (multipart, field "file")',
        consumes: ['multipart/form-data'],
        params: SharedUploadParamsSchema,
        response: { 200: SharedArtifactMediaResponseSchema, ...errors, 413: errorResponses[400] },
      },
    },
    async (request) =>
      s.sharedArtifacts.upload(
        request.user,
        request.params,
        () => readOneFile(request, app.config.uploadLimitBytes),
        saveClientOf(request),
      ),
  );
  app.delete(
    nestedUrl(':kind/:fileId'),
    nestedSchema('Remove a file', SharedArtifactMediaResponseSchema, { params: SharedFileDeleteParamsSchema }),
    async (request) => s.sharedArtifacts.removeFile(request.user, request.params, saveClientOf(request)),
  );

  app.get(
    '/shared-artifacts',
    {
      schema: {
        tags,
        summary: 'Shared artifacts of my shared portfolios',
        response: { 200: SharedArtifactListResponseSchema, ...errors },
      },
    },
    async (request) => s.sharedArtifacts.listForMember(request.user),
  );
  app.get(
    '/shared-artifacts/:id',
    {
      schema: {
        tags,
        summary: 'One shared artifact with comments and reactions',
        params: IdParamsSchema,
        response: { 200: SharedArtifactDetailSchema, ...errors },
      },
    },
    async (request) => s.sharedArtifacts.get(request.user, request.params.id),
  );
  app.put(
    '/shared-artifacts/:id',
    {
      schema: {
        tags,
        summary: 'Save answers; with updated_at a newer stored version answers 409',
        params: IdParamsSchema,
        body: SharedArtifactUpdateBodySchema,
        response: { 200: SharedArtifactSchema, ...errors },
      },
      config: USER_LIMITS.saves,
    },
    async (request) => s.sharedArtifacts.update(request.user, request.params.id, request.body, saveClientOf(request)),
  );
  app.delete(
    '/shared-artifacts/:id',
    {
      schema: {
        tags,
        summary: 'Delete (only without comments and reactions)',
        params: IdParamsSchema,
        response: { 200: SharedArtifactSchema, ...errors },
      },
    },
    async (request) => s.sharedArtifacts.remove(request.user, request.params.id),
  );
  app.post(
    '/shared-artifacts/:id/share',
    {
      schema: {
        tags,
        summary: 'Copy to a shared portfolio',
        params: IdParamsSchema,
        body: ShareBodySchema,
        response: { 200: ShareResponseSchema, ...errors },
      },
    },
    async (request) =>
      s.sharedArtifacts.shareFromShared(request.user, request.params.id, request.body.sharedPortfolioId),
  );
  app.post(
    '/artifacts/:id/share',
    {
      schema: {
        tags,
        summary: 'Copy a completed artifact to a shared portfolio',
        params: IdParamsSchema,
        body: ShareBodySchema,
        response: { 200: ShareResponseSchema, ...errors },
      },
    },
    async (request) =>
      s.sharedArtifacts.shareFromArtifact(
        request.user,
        request.params.id,
        request.body.sharedPortfolioId,
        request.body.includeNotes ?? false,
      ),
  );
};
