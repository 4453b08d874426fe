import {
  InvitationListResponseSchema,
  InvitationSchema,
  type Invitation,
  type InvitationCreateBody,
} from '../schemas/invitation.ts';
import {
  CommentResponseSchema,
  GateCheckResponseSchema,
  ReactionSchema,
  ShareResponseSchema,
  SharedArtifactDetailSchema,
  SharedArtifactMediaResponseSchema,
  type GateCheckResponse,
  type Reaction,
  type SharedArtifactDetail,
} from '../schemas/sharedArtifact.ts';
import {
  MembersResponseSchema,
  SharedArtifactSchema,
  SharedPortfolioListItemSchema,
  SharedPortfolioListResponseSchema,
  SharedPortfolioSchema,
  SharedPortfolioSummarySchema,
  type MembersResponse,
  type SharedArtifact,
  type SharedPortfolio,
  type SharedPortfolioBody,
  type SharedPortfolioListItem,
  type SharedPortfolioSummary,
} from '../schemas/sharedPortfolio.ts';
import type { MediaKind } from '../schemas/media.ts';
import type { Responses } from '../schemas/structure.ts';
import {
  VersionDetailSchema,
  VersionListResponseSchema,
  type VersionDetail,
  type VersionListResponse,
} from '../schemas/versions.ts';
import { api, apiBase } from './api.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** My shared portfolios (researchers: all). */
export function listSharedPortfolios(signal?: AbortSignal): Promise<SharedPortfolioListItem[]> {
  return api().request({
    method: 'GET',
    path: '/shared-portfolios',
    schema: SharedPortfolioListResponseSchema,
    ...withSignal(signal),
  });
}

/** One shared portfolio with its artifacts. */
export function getSharedPortfolio(id: number, signal?: AbortSignal): Promise<SharedPortfolio> {
  return api().request({
    method: 'GET',
    path: `/shared-portfolios/${id}`,
    schema: SharedPortfolioSchema,
    ...withSignal(signal),
  });
}

/** One shared portfolio with its artifacts in brief (the web's Shared Portfolios pages). */
export function getSharedPortfolioSummary(id: number, signal?: AbortSignal): Promise<SharedPortfolioSummary> {
  return api().request({
    method: 'GET',
    path: `/shared-portfolios/${id}/summary`,
    schema: SharedPortfolioSummarySchema,
    ...withSignal(signal),
  });
}

/** Creates a shared portfolio. */
export function createSharedPortfolio(body: SharedPortfolioBody, signal?: AbortSignal): Promise<SharedPortfolio> {
  return api().request({
    method: 'POST',
    path: '/shared-portfolios',
    body,
    schema: SharedPortfolioSchema,
    ...withSignal(signal),
  });
}

/** Changes a shared portfolio. */
export function updateSharedPortfolio(
  id: number,
  body: SharedPortfolioBody,
  signal?: AbortSignal,
): Promise<SharedPortfolio> {
  return api().request({
    method: 'PUT',
    path: `/shared-portfolios/${id}`,
    body,
    schema: SharedPortfolioSchema,
    ...withSignal(signal),
  });
}

/** Deletes an empty shared portfolio. */
export function deleteSharedPortfolio(id: number, signal?: AbortSignal): Promise<SharedPortfolioListItem> {
  return api().request({
    method: 'DELETE',
    path: `/shared-portfolios/${id}`,
    schema: SharedPortfolioListItemSchema,
    ...withSignal(signal),
  });
}

/** Members, pending invitees and people matching `search` (at least 3 characters). */
export function getMembers(id: number, search?: string, signal?: AbortSignal): Promise<MembersResponse> {
  return api().request({
    method: 'GET',
    path: `/shared-portfolios/${id}/members`,
    schema: MembersResponseSchema,
    ...(search ? { query: { search } } : {}),
    ...withSignal(signal),
  });
}

/** Leaves a shared portfolio (the owner names a new owner). */
export function leaveSharedPortfolio(id: number, newOwnerId?: number, signal?: AbortSignal): Promise<SharedPortfolio> {
  return api().request({
    method: 'POST',
    path: `/shared-portfolios/${id}/leave`,
    body: newOwnerId !== undefined ? { newOwnerId } : {},
    schema: SharedPortfolioSchema,
    ...withSignal(signal),
  });
}

/** Removes a member. */
export function removeMember(id: number, userId: number, signal?: AbortSignal): Promise<SharedPortfolio> {
  return api().request({
    method: 'POST',
    path: `/shared-portfolios/${id}/remove-user/${userId}`,
    schema: SharedPortfolioSchema,
    ...withSignal(signal),
  });
}

/** The address that downloads `shared portfolios.csv` (researchers; the session cookie authorises it). */
export function sharedExportUrl(): string {
  return `${apiBase()}/shared-portfolios/export`;
}

/** One shared artifact with comments and reactions. */
export function getSharedArtifact(id: number, signal?: AbortSignal): Promise<SharedArtifactDetail> {
  return api().request({
    method: 'GET',
    path: `/shared-artifacts/${id}`,
    schema: SharedArtifactDetailSchema,
    ...withSignal(signal),
  });
}

/** The newest versions of a shared artifact's history (at most `limit`), newest first. */
export function listSharedVersions(id: number, limit: number, signal?: AbortSignal): Promise<VersionListResponse> {
  return api().request({
    method: 'GET',
    path: `/shared-artifacts/${id}/versions`,
    query: { limit: String(limit) },
    schema: VersionListResponseSchema,
    ...withSignal(signal),
  });
}

/** Version `n` of a shared artifact whole: its answers and files. */
export function getSharedVersion(id: number, n: number, signal?: AbortSignal): Promise<VersionDetail> {
  return api().request({
    method: 'GET',
    path: `/shared-artifacts/${id}/versions/${n}`,
    schema: VersionDetailSchema,
    ...withSignal(signal),
  });
}

/** Asks whether saving a version would overwrite someone else's later save. */
export function gateCheck(
  portfolioId: number,
  artifactId: number,
  updatedAt: string,
  signal?: AbortSignal,
): Promise<GateCheckResponse> {
  return api().request({
    method: 'GET',
    path: `/shared-portfolios/${portfolioId}/shared-artifacts/${artifactId}/gate-check`,
    query: { updated_at: updatedAt },
    schema: GateCheckResponseSchema,
    ...withSignal(signal),
  });
}

/** Saves a shared artifact's answers based on version `updatedAt` (409 when a newer one is stored). */
export function updateSharedArtifact(
  id: number,
  responses: Responses,
  updatedAt: string,
  signal?: AbortSignal,
): Promise<SharedArtifact> {
  return api().request({
    method: 'PUT',
    path: `/shared-artifacts/${id}`,
    body: { responses, updated_at: updatedAt },
    schema: SharedArtifactSchema,
    ...withSignal(signal),
  });
}

/** Deletes a shared artifact without comments and reactions. */
export function deleteSharedArtifact(id: number, signal?: AbortSignal): Promise<SharedArtifact> {
  return api().request({
    method: 'DELETE',
    path: `/shared-artifacts/${id}`,
    schema: SharedArtifactSchema,
    ...withSignal(signal),
  });
}

/**
 * Copies a personal (`from: 'artifact'`) or shared artifact into a shared portfolio; returns the copy.
 * `includeNotes` (personal artifacts): the owner's private notes become her moment comments on the copy.
 */
export function copyArtifact(
  from: 'artifact' | 'sharedArtifact',
  id: number,
  sharedPortfolioId: number,
  includeNotes = false,
  signal?: AbortSignal,
): Promise<SharedArtifact> {
  return api().request({
    method: 'POST',
    path: `/${from === 'artifact' ? 'artifacts' : 'shared-artifacts'}/${id}/share`,
    body: from === 'artifact' && includeNotes ? { sharedPortfolioId, includeNotes: true } : { sharedPortfolioId },
    schema: ShareResponseSchema,
    ...withSignal(signal),
  });
}

/** Removes a file from a shared artifact. */
export function removeFromSharedArtifact(
  portfolioId: number,
  artifactId: number,
  kind: MediaKind,
  fileId: number,
  signal?: AbortSignal,
) {
  return api().request({
    method: 'DELETE',
    path: `/shared-portfolios/${portfolioId}/shared-artifacts/${artifactId}/${kind}/${fileId}`,
    schema: SharedArtifactMediaResponseSchema,
    ...withSignal(signal),
  });
}

/** Adds a comment. */
export function addComment(sharedArtifact: number, text: string, signal?: AbortSignal) {
  return api().request({
    method: 'POST',
    path: '/comments',
    body: { text, sharedArtifact },
    schema: CommentResponseSchema,
    ...withSignal(signal),
  });
}

/** Changes my comment. */
export function editComment(id: number, text: string, signal?: AbortSignal) {
  return api().request({
    method: 'PUT',
    path: `/comments/${id}`,
    body: { text },
    schema: CommentResponseSchema,
    ...withSignal(signal),
  });
}

/** Deletes my comment. */
export function deleteComment(id: number, signal?: AbortSignal) {
  return api().request({
    method: 'DELETE',
    path: `/comments/${id}`,
    schema: CommentResponseSchema,
    ...withSignal(signal),
  });
}

/** Adds my reaction. */
export function addReaction(sharedArtifact: number, value: string, signal?: AbortSignal): Promise<Reaction> {
  return api().request({
    method: 'POST',
    path: '/reactions',
    body: { sharedArtifact, value },
    schema: ReactionSchema,
    ...withSignal(signal),
  });
}

/** Removes my reaction. */
export function removeReaction(id: number, signal?: AbortSignal): Promise<Reaction> {
  return api().request({ method: 'DELETE', path: `/reactions/${id}`, schema: ReactionSchema, ...withSignal(signal) });
}

/** Invitations to me. */
export function listInvitations(signal?: AbortSignal): Promise<Invitation[]> {
  return api().request({
    method: 'GET',
    path: '/invitations',
    schema: InvitationListResponseSchema,
    ...withSignal(signal),
  });
}

/** One invitation. */
export function getInvitation(id: number, signal?: AbortSignal): Promise<Invitation> {
  return api().request({ method: 'GET', path: `/invitations/${id}`, schema: InvitationSchema, ...withSignal(signal) });
}

/** Invites a user by id or anyone by e-mail. */
export function invite(body: InvitationCreateBody, signal?: AbortSignal): Promise<Invitation> {
  return api().request({ method: 'POST', path: '/invitations', body, schema: InvitationSchema, ...withSignal(signal) });
}

/** Accepts an invitation; returns the shared portfolio joined. */
export function acceptInvitation(id: number, signal?: AbortSignal): Promise<SharedPortfolio> {
  return api().request({
    method: 'POST',
    path: `/invitations/${id}/accept`,
    schema: SharedPortfolioSchema,
    ...withSignal(signal),
  });
}

/** Declines (invitee) or cancels (owner) an invitation. */
export function deleteInvitation(id: number, signal?: AbortSignal): Promise<Invitation> {
  return api().request({
    method: 'DELETE',
    path: `/invitations/${id}`,
    schema: InvitationSchema,
    ...withSignal(signal),
  });
}
