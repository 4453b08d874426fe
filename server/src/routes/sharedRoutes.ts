import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '#schemas/common';
import { InvitationCreateBodySchema, InvitationListResponseSchema, InvitationSchema } from '#schemas/invitation';
import {
  AvailableReactionsSchema,
  CommentBodySchema,
  CommentResponseSchema,
  CommentSchema,
  CommentUpdateBodySchema,
  GateCheckQuerySchema,
  GateCheckResponseSchema,
  LockResponseSchema,
  ReactionBodySchema,
  ReactionSchema,
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
import {
  LeaveBodySchema,
  MembersQuerySchema,
  MembersResponseSchema,
  RemoveUserParamsSchema,
  SharedArtifactSchema,
  SharedNestedParamsSchema,
  SharedPortfolioBodySchema,
  SharedPortfolioListItemSchema,
  SharedPortfolioListResponseSchema,
  SharedPortfolioSchema,
} from '#schemas/sharedPortfolio';
import { z } from 'zod';
import { readOneFile } from '../http/multipart.ts';
import { USER_LIMITS } from '../http/userLimits.ts';
import { errorResponses } from './errorResponses.ts';

const errors = { ...errorResponses, 409: errorResponses[400], 423: errorResponses[400] };

/** Shared portfolios, their artifacts, comments, reactions and invitations. Protected. */
export const sharedRoutes: FastifyPluginAsyncZod = async (app) => {
  const s = app.services;
  const tags = ['shared portfolios'];

  app.get('/shared-portfolios', { schema: { tags, summary: 'My shared portfolios (researchers: all)', response: { 200: SharedPortfolioListResponseSchema, ...errors } } }, async (request) =>
    s.shared.list(request.user),
  );
  app.get('/shared-portfolios/:id', { schema: { tags, summary: 'One shared portfolio with its artifacts', params: IdParamsSchema, response: { 200: SharedPortfolioSchema, ...errors } } }, async (request) =>
    s.shared.get(request.user, request.params.id),
  );
  app.post('/shared-portfolios', { schema: { tags, summary: 'Create a shared portfolio (PLC leads, researchers)', body: SharedPortfolioBodySchema, response: { 200: SharedPortfolioSchema, ...errors } } }, async (request) =>
    s.shared.create(request.user, request.body),
  );
  app.put(
    '/shared-portfolios/:id',
    { schema: { tags, summary: 'Change a shared portfolio (owner, researchers)', params: IdParamsSchema, body: SharedPortfolioBodySchema, response: { 200: SharedPortfolioSchema, ...errors } } },
    async (request) => s.shared.update(request.user, request.params.id, request.body),
  );
  app.delete('/shared-portfolios/:id', { schema: { tags, summary: 'Delete an empty shared portfolio', params: IdParamsSchema, response: { 200: SharedPortfolioListItemSchema, ...errors } } }, async (request) =>
    s.shared.remove(request.user, request.params.id),
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
    { schema: { tags, summary: 'Leave (the owner names a new owner)', params: IdParamsSchema, body: LeaveBodySchema, response: { 200: SharedPortfolioSchema, ...errors } } },
    async (request) => s.shared.leave(request.user, request.params.id, request.body?.newOwnerId),
  );
  app.post(
    '/shared-portfolios/:id/remove-user/:userId',
    { schema: { tags, summary: 'Remove a member (owner, researchers)', params: RemoveUserParamsSchema, response: { 200: SharedPortfolioSchema, ...errors } } },
    async (request) => s.shared.removeUser(request.user, request.params.id, request.params.userId),
  );

  const nestedTags = ['shared artifacts'];
  app.get(
    '/shared-portfolios/:id/shared-artifacts/:artifactId/gate-check',
    {
      schema: {
        tags: nestedTags,
        summary: 'Would a save based on this version overwrite a later one?',
        params: SharedNestedParamsSchema,
        querystring: GateCheckQuerySchema,
        response: { 200: GateCheckResponseSchema, ...errors },
      },
    },
    async (request) => s.sharedArtifacts.gateCheck(request.user, request.params.id, request.params.artifactId, request.query.updated_at),
  );
  app.post(
    '/shared-portfolios/:id/shared-artifacts/:artifactId/lock',
    { schema: { tags: nestedTags, summary: 'Take the 15-minute edit lock', params: SharedNestedParamsSchema, response: { 200: LockResponseSchema, ...errors } } },
    async (request) => s.sharedArtifacts.lock(request.user, request.params.id, request.params.artifactId),
  );
  app.post(
    '/shared-portfolios/:id/shared-artifacts/:artifactId/unlock',
    { schema: { tags: nestedTags, summary: 'Release the edit lock', params: SharedNestedParamsSchema, body: UnlockBodySchema, response: { 200: z.object({}), ...errors } } },
    async (request) => s.sharedArtifacts.unlock(request.user, request.params.id, request.params.artifactId, request.body?.lock),
  );
  app.put(
    '/shared-portfolios/:id/shared-artifacts/:artifactId/responses',
    {
      schema: {
        tags: nestedTags,
        summary: 'Merge answers (null deletes a key)',
        params: SharedNestedParamsSchema,
        body: SharedArtifactMergeBodySchema,
        response: { 200: SharedArtifactSchema, ...errors },
      },
    },
    async (request) => s.sharedArtifacts.merge(request.user, request.params.id, request.params.artifactId, request.body),
  );
  app.post(
    '/shared-portfolios/:id/shared-artifacts/:artifactId/:kind',
    {
      config: USER_LIMITS.uploads,
      schema: {
        tags: nestedTags,
        summary: 'Upload a file (multipart, field "file")',
        consumes: ['multipart/form-data'],
        params: SharedUploadParamsSchema,
        response: { 200: SharedArtifactMediaResponseSchema, ...errors, 413: errorResponses[400] },
      },
    },
    async (request) =>
      s.sharedArtifacts.upload(request.user, request.params, () => readOneFile(request, app.config.uploadLimitBytes)),
  );
  app.delete(
    '/shared-portfolios/:id/shared-artifacts/:artifactId/:kind/:fileId',
    { schema: { tags: nestedTags, summary: 'Remove a file', params: SharedFileDeleteParamsSchema, response: { 200: SharedArtifactMediaResponseSchema, ...errors } } },
    async (request) => s.sharedArtifacts.removeFile(request.user, request.params),
  );

  app.get('/shared-artifacts', { schema: { tags: nestedTags, summary: 'Shared artifacts of my shared portfolios', response: { 200: SharedArtifactListResponseSchema, ...errors } } }, async (request) =>
    s.sharedArtifacts.listForMember(request.user),
  );
  app.get('/shared-artifacts/:id', { schema: { tags: nestedTags, summary: 'One shared artifact with comments and reactions', params: IdParamsSchema, response: { 200: SharedArtifactDetailSchema, ...errors } } }, async (request) =>
    s.sharedArtifacts.get(request.user, request.params.id),
  );
  app.put(
    '/shared-artifacts/:id',
    {
      schema: {
        tags: nestedTags,
        summary: 'Save answers; with updated_at a newer stored version answers 409',
        params: IdParamsSchema,
        body: SharedArtifactUpdateBodySchema,
        response: { 200: SharedArtifactSchema, ...errors },
      },
    },
    async (request) => s.sharedArtifacts.update(request.user, request.params.id, request.body),
  );
  app.delete('/shared-artifacts/:id', { schema: { tags: nestedTags, summary: 'Delete (only without comments and reactions)', params: IdParamsSchema, response: { 200: SharedArtifactSchema, ...errors } } }, async (request) =>
    s.sharedArtifacts.remove(request.user, request.params.id),
  );
  app.post(
    '/shared-artifacts/:id/share',
    { schema: { tags: nestedTags, summary: 'Copy to a shared portfolio', params: IdParamsSchema, body: ShareBodySchema, response: { 200: ShareResponseSchema, ...errors } } },
    async (request) => s.sharedArtifacts.shareFromShared(request.user, request.params.id, request.body.sharedPortfolioId),
  );
  app.post(
    '/artifacts/:id/share',
    { schema: { tags: nestedTags, summary: 'Copy a completed artifact to a shared portfolio', params: IdParamsSchema, body: ShareBodySchema, response: { 200: ShareResponseSchema, ...errors } } },
    async (request) => s.sharedArtifacts.shareFromArtifact(request.user, request.params.id, request.body.sharedPortfolioId, request.body.includeNotes ?? false),
  );

  const talkTags = ['comments and reactions'];
  app.get('/comments', { schema: { tags: talkTags, summary: 'Comments in my shared portfolios', response: { 200: z.array(CommentSchema), ...errors } } }, async (request) =>
    s.discussion.comments(request.user),
  );
  app.post('/comments', { config: USER_LIMITS.discussion, schema: { tags: talkTags, summary: 'Comment (1–2500 characters)', body: CommentBodySchema, response: { 200: CommentResponseSchema, ...errors } } }, async (request) =>
    s.discussion.comment(request.user, request.body.sharedArtifact, request.body.text, request.body.moment),
  );
  app.put(
    '/comments/:id',
    { schema: { tags: talkTags, summary: 'Edit my comment', params: IdParamsSchema, body: CommentUpdateBodySchema, response: { 200: CommentResponseSchema, ...errors } } },
    async (request) => s.discussion.editComment(request.user, request.params.id, request.body.text, request.body.moment),
  );
  app.delete('/comments/:id', { schema: { tags: talkTags, summary: 'Delete my comment', params: IdParamsSchema, response: { 200: CommentResponseSchema, ...errors } } }, async (request) =>
    s.discussion.deleteComment(request.user, request.params.id),
  );
  app.get('/reactions/available', { schema: { tags: talkTags, summary: 'The four reactions', response: { 200: AvailableReactionsSchema } } }, async () => s.discussion.available());
  app.get('/reactions', { schema: { tags: talkTags, summary: 'Reactions in my shared portfolios', response: { 200: z.array(ReactionSchema), ...errors } } }, async (request) =>
    s.discussion.reactions(request.user),
  );
  app.post('/reactions', { config: USER_LIMITS.discussion, schema: { tags: talkTags, summary: 'React (idempotent per value)', body: ReactionBodySchema, response: { 200: ReactionSchema, ...errors } } }, async (request) =>
    s.discussion.react(request.user, request.body.sharedArtifact, request.body.value, request.body.moment),
  );
  app.delete('/reactions/:id', { schema: { tags: talkTags, summary: 'Remove my reaction', params: IdParamsSchema, response: { 200: ReactionSchema, ...errors } } }, async (request) =>
    s.discussion.unreact(request.user, request.params.id),
  );

  const inviteTags = ['invitations'];
  app.get('/invitations', { schema: { tags: inviteTags, summary: 'Invitations to me', response: { 200: InvitationListResponseSchema, ...errors } } }, async (request) =>
    s.invitations.list(request.user),
  );
  app.get('/invitations/:id', { schema: { tags: inviteTags, summary: 'One invitation', params: IdParamsSchema, response: { 200: InvitationSchema, ...errors } } }, async (request) =>
    s.invitations.get(request.user, request.params.id),
  );
  app.post('/invitations', { config: USER_LIMITS.invitations, schema: { tags: inviteTags, summary: 'Invite a user (to) or anyone by e-mail', body: InvitationCreateBodySchema, response: { 200: InvitationSchema, ...errors } } }, async (request) =>
    s.invitations.create(request.user, request.body),
  );
  app.post('/invitations/:id/accept', { schema: { tags: inviteTags, summary: 'Accept (invitee)', params: IdParamsSchema, response: { 200: SharedPortfolioSchema, ...errors } } }, async (request) =>
    s.invitations.accept(request.user, request.params.id),
  );
  app.delete('/invitations/:id', { schema: { tags: inviteTags, summary: 'Decline (invitee) or cancel (owner)', params: IdParamsSchema, response: { 200: InvitationSchema, ...errors } } }, async (request) =>
    s.invitations.remove(request.user, request.params.id),
  );
};
