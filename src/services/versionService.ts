import { ArtifactSchema, type Artifact } from '../schemas/artifact.ts';
import { SharedArtifactSchema, type SharedArtifact } from '../schemas/sharedPortfolio.ts';
import {
  VersionDetailSchema,
  VersionListResponseSchema,
  type VersionDetail,
  type VersionListResponse,
} from '../schemas/versions.ts';
import { api } from './api.ts';

/** Whose history: a personal artifact's or a shared artifact's. */
export type VersionHolder = 'artifact' | 'sharedArtifact';

const base = (holder: VersionHolder, id: number) =>
  `${holder === 'artifact' ? '/artifacts' : '/shared-artifacts'}/${id}/versions`;
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/**
 * A page of an artifact's versions, newest first: the newest `limit`, or those before version `before`.
 * @throws ApiError, NetworkError or ContractError
 */
export function listVersions(
  holder: VersionHolder,
  id: number,
  page: { before?: number | undefined; limit?: number | undefined },
  signal?: AbortSignal,
): Promise<VersionListResponse> {
  return api().request({
    method: 'GET',
    path: base(holder, id),
    query: { before: page.before, limit: page.limit },
    schema: VersionListResponseSchema,
    ...withSignal(signal),
  });
}

/** One version whole: its answers and files. @throws ApiError, NetworkError or ContractError */
export function getVersion(holder: VersionHolder, id: number, n: number, signal?: AbortSignal): Promise<VersionDetail> {
  return api().request({
    method: 'GET',
    path: `${base(holder, id)}/${n}`,
    schema: VersionDetailSchema,
    ...withSignal(signal),
  });
}

/**
 * Saves version `n` as the newest, guarded by `updatedAt` (the artifact's version the person saw):
 * 409 when a later one is stored. Answers the artifact as saved.
 * @throws ApiError, NetworkError or ContractError
 */
export function restoreVersion(
  holder: VersionHolder,
  id: number,
  n: number,
  updatedAt: string,
  signal?: AbortSignal,
): Promise<Artifact | SharedArtifact> {
  return api().request({
    method: 'POST',
    path: `${base(holder, id)}/${n}/restore`,
    body: { updated_at: updatedAt },
    schema: holder === 'artifact' ? ArtifactSchema : SharedArtifactSchema,
    ...withSignal(signal),
  });
}
