import type { z } from 'zod';
import { ArtifactMediaResponseSchema, type ArtifactMediaResponse } from '../schemas/artifact.ts';
import { ApiErrorSchema } from '../schemas/common.ts';
import { ViewedFileSchema, type MediaKind, type ViewedFile } from '../schemas/media.ts';
import { api, apiBase } from './api.ts';
import { ApiError, ContractError, NetworkError } from './errors.ts';
import { WEB_CLIENT_HEADERS } from './session.ts';

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

/**
 * Uploads one file to `basePath` (e.g. `/portfolios/1/artifacts/2`) with progress reports
 * (0–1), parsing the answer with `schema`. Aborting the signal cancels the upload.
 * @throws ApiError, NetworkError or ContractError.
 */
export function uploadFile<S extends z.ZodType>(
  basePath: string,
  file: File,
  schema: S,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  const kind = kindOfFile(file);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const path = `${basePath}/${kind}`;
    xhr.open('POST', `${apiBase()}${path}`);
    for (const [name, value] of Object.entries(WEB_CLIENT_HEADERS)) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new NetworkError());
    // A cancelled upload never settles (see `NEVER` in apiClient).
    xhr.onabort = () => undefined;
    xhr.onload = () => {
      let data: unknown = xhr.responseText;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        // keep the text
      }
      if (xhr.status !== 200) {
        const parsed = ApiErrorSchema.safeParse(data);
        const message =
          parsed.success && typeof parsed.data.message === 'string'
            ? parsed.data.message
            : xhr.responseText || `Upload failed (${xhr.status}).`;
        reject(
          new ApiError(
            xhr.status,
            parsed.success ? (parsed.data.code ?? 'unknown') : 'unknown',
            message,
            xhr.responseText,
          ),
        );
        return;
      }
      const parsed = schema.safeParse(data);
      if (parsed.success) {
        onProgress(1);
        resolve(parsed.data);
      } else reject(new ContractError(path, parsed.error.issues));
    };
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** Uploads a file to a personal artifact. */
export function uploadToArtifact(
  portfolioId: number,
  artifactId: number,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ArtifactMediaResponse> {
  return uploadFile(
    `/portfolios/${portfolioId}/artifacts/${artifactId}`,
    file,
    ArtifactMediaResponseSchema,
    onProgress,
    signal,
  );
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
