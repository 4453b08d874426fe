import { ArtifactMediaResponseSchema, type ArtifactMediaResponse } from '../schemas/artifact.ts';
import { ViewedFileSchema, type MediaKind, type ViewedFile } from '../schemas/media.ts';
import { api, apiBase } from './api.ts';

/** The absolute address of a stored file (`media.url` is relative to the API base). */
export function mediaUrl(url: string): string {
  return `${apiBase()}${url}`;
}

/** Which endpoint a file goes to, by the type the browser reports (the server checks the bytes). */
export function kindOfFile(file: { type: string }): MediaKind {
  if (file.type.startsWith('image/')) return 'images';
  if (file.type.startsWith('video/')) return 'videos';
  return 'documents';
}

/** Removes a file from a personal artifact. */
export function removeFromArtifact(
  portfolioId: number,
  artifactId: number,
  kind: MediaKind,
  fileId: number,
  signal?: AbortSignal,
): Promise<ArtifactMediaResponse> {
  return api().request({
    method: 'DELETE',
    path: `/portfolios/${portfolioId}/artifacts/${artifactId}/${kind}/${fileId}`,
    schema: ArtifactMediaResponseSchema,
    ...(signal ? { signal } : {}),
  });
}

/**
 * What the portal's viewer shows of a file opened from a bare link (`/images/uploads/<capability>/<file>`):
 * its name, alt text and the artifact it belongs to (no session needed: the address is the capability).
 * @throws ApiError (404 for anything not genuine or no longer readable), NetworkError or ContractError.
 */
export function getViewedFile(capability: string, name: string, signal?: AbortSignal): Promise<ViewedFile> {
  return api().request({
    method: 'GET',
    path: `/viewer-files/${encodeURIComponent(capability)}/${encodeURIComponent(name)}`,
    schema: ViewedFileSchema,
    ...(signal ? { signal } : {}),
  });
}
