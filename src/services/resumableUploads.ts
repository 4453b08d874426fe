import type { DetailedError, PreviousUpload, UrlStorage } from 'tus-js-client';
import { ArtifactMediaResponseSchema } from '../schemas/artifact.ts';
import { ApiErrorSchema } from '../schemas/common.ts';
import type { MediaKind } from '../schemas/media.ts';
import type { ResumableUploadMetadata } from '../schemas/resumableUpload.ts';
import { SharedArtifactMediaResponseSchema } from '../schemas/sharedArtifact.ts';
import { apiBase } from './api.ts';
import { ApiError, ContractError, NetworkError } from './errors.ts';
import { currentUser, WEB_CLIENT_HEADERS } from './session.ts';

/**
 * Bytes per PATCH: the S3 store's part size (each request ends on a part boundary, so nothing is
 * kept aside between requests), a few seconds on a school connection, 512 requests for 4 GiB.
 */
export const CHUNK_SIZE = 8 * 1024 * 1024;

/**
 * Waits (ms) before each new try after a network error: quick at first, then every 1.5 s for
 * about half a minute, so that an upload goes on within 2 s of the connection coming back. The
 * count starts again once bytes went through. After that the upload machine waits for the
 * connection itself.
 */
export const RETRY_DELAYS = [0, 500, 1000, ...Array.from({ length: 17 }, () => 1500)];

/**
 * The tus client, loaded with the first transfer or cancellation: the edit pages draw, and find
 * their remembered uploads (plain HEAD requests), without it.
 */
const tusClient = () => import('tus-js-client');

/** Where a resumable upload goes. */
export interface TransferTarget {
  target: 'artifact' | 'sharedArtifact';
  /** The portfolio, or the shared portfolio, that holds the artifact. */
  portfolioId: number;
  artifactId: number;
}

/** One file to send to a target. */
export interface TransferRequest extends TransferTarget {
  file: File;
  kind: MediaKind;
}

/** What a running transfer tells. */
export interface TransferListener {
  /** The server created the upload (or the remembered one is resumed): its address, for cancelling. */
  onUrl: (uploadUrl: string) => void;
  /** Bytes the server holds, of the file's size (also the offset a resumed upload starts from). */
  onProgress: (sent: number, total: number) => void;
  /** The connection broke off; the transfer tries again by itself. */
  onRetrying: () => void;
  /** The last bytes were answered with the file record (the target's media response). */
  onStored: (answer: unknown) => void;
  /** Gave up: `NetworkError` (tries are used up), `ApiError` (refused) or `ContractError`. */
  onFailed: (error: Error) => void;
}

/** A running transfer: `pause()` stops it and keeps the upload on the server (and its memory here). */
export interface Transfer {
  pause: () => void;
}

/** An unfinished upload this browser remembers for the signed-in person and an artifact. */
export interface RememberedUpload {
  /** The storage key, which `forgetRemembered` takes. */
  key: string;
  name: string;
  size: number;
  /** Bytes the server holds, when it could be asked. */
  sent: number | null;
  uploadUrl: string;
}

const KIND_WORD: Record<MediaKind, ResumableUploadMetadata['kind']> = {
  images: 'image',
  videos: 'video',
  documents: 'document',
};

const TUS_HEADERS = { 'tus-resumable': '1.0.0' } as const;

/** Where unfinished uploads are remembered: `localStorage`, keyed `tus::<fingerprint>::<n>` as tus-js-client keys them. */
const STORAGE_PREFIX = 'tus::';

function storedEntries(prefix: string): PreviousUpload[] {
  const entries: PreviousUpload[] = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key?.startsWith(prefix)) continue;
      try {
        entries.push({ ...(JSON.parse(localStorage.getItem(key) ?? '') as PreviousUpload), urlStorageKey: key });
      } catch {
        // A damaged entry is skipped.
      }
    }
  } catch {
    // Storage disabled: nothing remembered.
  }
  return entries;
}

/** tus-js-client's URL storage over `localStorage`, which keeps going (forgetting) where storage is disabled. */
const urlStorage: UrlStorage = {
  findAllUploads: async () => storedEntries(STORAGE_PREFIX),
  findUploadsByFingerprint: async (fingerprint) => storedEntries(`${STORAGE_PREFIX}${fingerprint}::`),
  removeUpload: async (key) => {
    try {
      localStorage.removeItem(key);
    } catch {
      // Nothing was stored.
    }
  },
  addUpload: async (fingerprint, upload) => {
    const key = `${STORAGE_PREFIX}${fingerprint}::${Date.now()}`;
    try {
      localStorage.setItem(key, JSON.stringify(upload));
    } catch {
      // Storage full or disabled: this upload resumes only while the page stays open.
    }
    return key;
  },
};

/** The fingerprints of one person's uploads to one artifact begin with this (another person never matches). */
function ownerPrefix(target: TransferTarget): string {
  const owner = currentUser.value?.id ?? 'nobody';
  return `practicefolio/${owner}/${target.target}/${target.portfolioId}/${target.artifactId}/`;
}

/** The same file chosen again (name, size, last change) by the same person for the same artifact. */
function fingerprintOf(request: TransferRequest): string {
  const { name, size, lastModified } = request.file;
  return `${ownerPrefix(request)}${encodeURIComponent(name)}/${size}/${lastModified}`;
}

/** What to say when the server's answer carries no message of its own (a proxy's page, say). */
const FALLBACK_MESSAGES: Record<number, string> = {
  400: 'The server could not take this file.',
  403: 'You may not add files to this artifact.',
  404: 'This upload is gone (finished, cancelled or expired). Choose the file again to upload it.',
  413: 'This file is too large, or there is no room left in your storage.',
  415: 'This kind of file cannot be uploaded here.',
  423: 'Someone else is editing this artifact. Try again when they are done.',
  429: 'Too many uploads at once. Wait a few minutes, then try again.',
};

/** A failure of tus-js-client as the app's typed errors, with the server's message when it answered. */
export function transferError(error: Error | DetailedError): Error {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (!response) return new NetworkError();
  return answeredError(response.getStatus(), response.getBody() ?? '');
}

/** A refusal as an `ApiError`, with the server's message (or one for its status). */
function answeredError(status: number, body: string): ApiError {
  let data: unknown = null;
  try {
    data = JSON.parse(body);
  } catch {
    // Not JSON: the status alone.
  }
  const parsed = ApiErrorSchema.safeParse(data);
  const message =
    parsed.success && typeof parsed.data.message === 'string'
      ? parsed.data.message
      : (FALLBACK_MESSAGES[status] ?? `The upload failed (${status}). Please try again later.`);
  return new ApiError(status, parsed.success ? (parsed.data.code ?? 'unknown') : 'unknown', message, body);
}

/** The finished upload's answer, checked against the target's media response. */
function storedAnswer(target: TransferTarget['target'], body: string): unknown {
  const schema = target === 'artifact' ? ArtifactMediaResponseSchema : SharedArtifactMediaResponseSchema;
  let data: unknown = null;
  try {
    data = JSON.parse(body);
  } catch {
    // Checked below.
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ContractError('/uploads/tus', parsed.error.issues);
  return parsed.data;
}

/**
 * Sends a file with tus: resumes the upload this person left of the same file for the same
 * artifact (after a reload, a pause or a drop) or creates one; chunked, tried again after network
 * errors, remembered in `localStorage` until it is stored, refused or cancelled.
 */
export function startTransfer(request: TransferRequest, listener: TransferListener): Transfer {
  let paused = false;
  let running: { abort: (terminate: boolean) => Promise<void> } | null = null;
  const begin = async () => {
    const { Upload } = await tusClient();
    if (paused) return;
    const upload = new Upload(request.file, {
      endpoint: `${apiBase()}/uploads/tus`,
      chunkSize: CHUNK_SIZE,
      retryDelays: RETRY_DELAYS,
      headers: { ...WEB_CLIENT_HEADERS },
      metadata: {
        target: request.target,
        portfolioId: String(request.portfolioId),
        artifactId: String(request.artifactId),
        kind: KIND_WORD[request.kind],
        filename: request.file.name,
        ...(request.file.type ? { filetype: request.file.type } : {}),
      },
      fingerprint: async () => fingerprintOf(request),
      urlStorage,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onUploadUrlAvailable: () => {
        if (upload.url) listener.onUrl(upload.url);
      },
      onProgress: (sent, total) => listener.onProgress(sent, total),
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        // A refusal answers the same again; 409 and 423 are settled by asking the offset again.
        const retry = status === 0 || status === 409 || status === 423 || status >= 500;
        // No answer at all: the connection broke off (the row says so until bytes go through again).
        if (status === 0 && !paused) listener.onRetrying();
        return retry;
      },
      onSuccess: ({ lastResponse }) => {
        const body = lastResponse.getBody();
        // No body: a HEAD found the upload complete (the answer to its last PATCH was lost). Its
        // record comes from that last PATCH sent again, which the server answers without storing twice.
        const answer = body ? Promise.resolve(body) : finishedBody(upload.url ?? '', request.file.size);
        answer
          .then((text) => listener.onStored(storedAnswer(request.target, text)))
          .catch((error: unknown) => listener.onFailed(error instanceof Error ? error : new NetworkError()));
      },
      onError: (error) => {
        const failure = transferError(error);
        // Refused for good (the upload is gone or never was): nothing to resume. After a server
        // failure (5xx) or a wait (408, 429) the upload stays, to be resumed by Retry.
        if (failure instanceof ApiError && isRefusal(failure.status)) void forgetFingerprint(fingerprintOf(request));
        listener.onFailed(failure);
      },
    });
    running = upload;
    const previous = await upload.findPreviousUploads();
    if (paused) return;
    const last = previous.at(-1);
    if (last) upload.resumeFromPreviousUpload(last);
    upload.start();
  };
  // The client's chunk could not be loaded: the network, offered again by Retry.
  begin().catch(() => listener.onFailed(new NetworkError()));
  return {
    pause: () => {
      paused = true;
      void running?.abort(false);
    },
  };
}

/**
 * The answer of a complete upload's last PATCH, asked again (empty, at its whole length): the
 * server answers its file record. Tried again like a transfer while it is being finished (423),
 * after a server failure or with no connection.
 */
async function finishedBody(uploadUrl: string, size: number): Promise<string> {
  for (const wait of RETRY_DELAYS) {
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    let response: Response;
    try {
      response = await fetch(uploadUrl, {
        method: 'PATCH',
        headers: {
          ...WEB_CLIENT_HEADERS,
          ...TUS_HEADERS,
          'upload-offset': String(size),
          'content-type': 'application/offset+octet-stream',
        },
        credentials: 'same-origin',
      });
    } catch {
      continue;
    }
    const text = await response.text();
    if (response.ok) return text;
    if (response.status !== 423 && response.status < 500) throw answeredError(response.status, text);
  }
  throw new NetworkError();
}

/** A 4xx that answers the same again (not a wait, a timeout or a lock). */
function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && ![408, 409, 423, 429].includes(status);
}

async function forgetFingerprint(fingerprint: string): Promise<void> {
  for (const entry of await urlStorage.findUploadsByFingerprint(fingerprint)) {
    await urlStorage.removeUpload(entry.urlStorageKey);
  }
}

/** Asks the server where an upload stands: its offset, or `null` once it is gone (or unreachable: `undefined`). */
async function offsetOf(uploadUrl: string, signal?: AbortSignal): Promise<number | null | undefined> {
  try {
    const response = await fetch(uploadUrl, {
      method: 'HEAD',
      headers: { ...WEB_CLIENT_HEADERS, ...TUS_HEADERS },
      credentials: 'same-origin',
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) return response.status >= 500 ? undefined : null;
    return Number(response.headers.get('upload-offset') ?? 0);
  } catch {
    return undefined;
  }
}

/**
 * The signed-in person's unfinished uploads to this artifact that this browser remembers, with
 * how far each got; uploads the server no longer has are forgotten here.
 */
export async function findRemembered(target: TransferTarget, signal?: AbortSignal): Promise<RememberedUpload[]> {
  const storage = urlStorage;
  const prefix = `${STORAGE_PREFIX}${ownerPrefix(target)}`;
  const entries = (await storage.findAllUploads()).filter(
    (entry): entry is PreviousUpload & { uploadUrl: string } =>
      entry.urlStorageKey.startsWith(prefix) && typeof entry.uploadUrl === 'string',
  );
  const found = await Promise.all(
    entries.map(async (entry) => {
      const sent = await offsetOf(entry.uploadUrl, signal);
      if (sent === null) {
        await storage.removeUpload(entry.urlStorageKey);
        return null;
      }
      return {
        key: entry.urlStorageKey,
        name: entry.metadata['filename'] ?? 'file',
        size: entry.size ?? 0,
        sent: sent ?? null,
        uploadUrl: entry.uploadUrl,
      } satisfies RememberedUpload;
    }),
  );
  return found.filter((entry): entry is RememberedUpload => entry !== null);
}

/** Cancels an unfinished upload (tus termination: its bytes and reserved room are given up) and forgets it here. */
export async function cancelUpload(uploadUrl: string, rememberedKey?: string): Promise<void> {
  const storage = urlStorage;
  const keys = rememberedKey
    ? [rememberedKey]
    : (await storage.findAllUploads()).filter((e) => e.uploadUrl === uploadUrl).map((e) => e.urlStorageKey);
  for (const key of keys) await storage.removeUpload(key);
  try {
    const { Upload } = await tusClient();
    await Upload.terminate(uploadUrl, { headers: { ...WEB_CLIENT_HEADERS }, retryDelays: [0, 1000] });
  } catch (error) {
    // Already gone (finished, cancelled or expired) is what was asked.
    const failure = transferError(error as Error);
    if (!(failure instanceof ApiError && (failure.status === 404 || failure.status === 410))) throw failure;
  }
}

/** The same file as a remembered upload (its name and size; the fingerprint also checks its last change). */
export function isSameFile(file: File, remembered: RememberedUpload): boolean {
  return file.name === remembered.name && file.size === remembered.size;
}
