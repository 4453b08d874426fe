import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ArtifactSchema } from '#schemas/artifact';
import { IdParamsSchema } from '#schemas/common';
import { SharedArtifactSchema } from '#schemas/sharedPortfolio';
import {
  VersionDetailSchema,
  VersionListQuerySchema,
  VersionListResponseSchema,
  VersionParamsSchema,
  VersionRestoreBodySchema,
} from '#schemas/versions';
import { USER_LIMITS } from '../http/userLimits.ts';
import { sharedErrorResponses as errors } from './errorResponses.ts';

const tags = ['versions'];

/**
 * The history of personal artifacts (`/artifacts/:id/versions…`) and of shared artifacts
 * (`/shared-artifacts/:id/versions…`): a page of versions, one version whole, and a restore that
 * saves an earlier version as the newest one. Protected.
 */
export const versionRoutes: FastifyPluginAsyncZod = async (app) => {
  const s = app.services;
  for (const [base, holder, what] of [
    ['/artifacts', 'artifact', 'an artifact'],
    ['/shared-artifacts', 'sharedArtifact', 'a shared artifact'],
  ] as const) {
    app.get(
      `${base}/:id/versions`,
      {
        schema: {
          tags,
          summary: `The versions of ${what}, newest first (paged)`,
          params: IdParamsSchema,
          querystring: VersionListQuerySchema,
          response: { 200: VersionListResponseSchema, ...errors },
        },
      },
      async (request) => s.versions.list(request.user, holder, request.params.id, request.query),
    );
    app.get(
      `${base}/:id/versions/:n`,
      {
        schema: {
          tags,
          summary: `One version of ${what}: its answers and files`,
          params: VersionParamsSchema,
          response: { 200: VersionDetailSchema, ...errors },
        },
      },
      async (request) => s.versions.get(request.user, holder, request.params.id, request.params.n),
    );
  }

  app.post(
    '/artifacts/:id/versions/:n/restore',
    {
      config: USER_LIMITS.restores,
      schema: {
        tags,
        summary: 'Save an earlier version of an artifact as its newest one',
        params: VersionParamsSchema,
        body: VersionRestoreBodySchema,
        response: { 200: ArtifactSchema, ...errors },
      },
    },
    async (request) => s.artifacts.restore(request.user, request.params.id, request.params.n, request.body?.updated_at),
  );
  app.post(
    '/shared-artifacts/:id/versions/:n/restore',
    {
      config: USER_LIMITS.restores,
      schema: {
        tags,
        summary: 'Save an earlier version of a shared artifact as its newest one; a later stored version answers 409',
        params: VersionParamsSchema,
        body: VersionRestoreBodySchema,
        response: { 200: SharedArtifactSchema, ...errors },
      },
    },
    async (request) =>
      s.sharedArtifacts.restore(request.user, request.params.id, request.params.n, request.body?.updated_at),
  );
};
