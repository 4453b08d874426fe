import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import {
  FileCapabilityParamsSchema,
  FileDeleteParamsSchema,
  UploadParamsSchema,
  ViewedFileSchema,
} from '#schemas/media';
import { saveClientOf } from '../http/auth.ts';
import { contentDisposition } from '../http/contentDisposition.ts';
import { readOneFile } from '../http/multipart.ts';
import { sendStored } from '../http/sendStored.ts';
import type { ObjectStore } from '../media/objectStore.ts';
import { notFound } from '../errors.ts';
import { USER_LIMITS } from '../http/userLimits.ts';
import { FILE_NOT_FOUND } from '../services/mediaService.ts';
import { errorResponses } from './errorResponses.ts';

/** Uploads to and deletes from personal artifacts. Protected. */
export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['media'];
  app.post(
    '/portfolios/:id/artifacts/:artifactId/:kind',
    {
      config: USER_LIMITS.uploads,
      schema: {
        tags,
        summary: 'Upload a file (multipart, field "file") to an artifact',
        consumes: ['multipart/form-data'],
        params: UploadParamsSchema,
        response: { 200: ArtifactMediaResponseSchema, ...errorResponses, 413: errorResponses[400] },
      },
    },
    async (request) =>
      app.services.media.uploadToArtifact(
        request.user,
        request.params,
        () => readOneFile(request, app.config.uploadLimitBytes),
        saveClientOf(request),
      ),
  );

  app.delete(
    '/portfolios/:id/artifacts/:artifactId/:kind/:fileId',
    {
      schema: {
        tags,
        summary: 'Remove a file from an artifact',
        params: FileDeleteParamsSchema,
        response: { 200: ArtifactMediaResponseSchema, ...errorResponses },
      },
    },
    async (request) => app.services.media.removeFromArtifact(request.user, request.params, saveClientOf(request)),
  );
};

/** `GET /uploads/{capability}/{name}` path: a signed capability and a stored file name. */
export const UploadParamsCapabilitySchema = FileCapabilityParamsSchema;

const FILE_HEADERS = {
  'content-security-policy': "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
} as const;

/** Whether a stored file starts as a PDF does (`%PDF-`). */
async function startsWithPdf(objects: ObjectStore, name: string): Promise<boolean> {
  const head = await objects.read(name, { start: 0, end: 4 }).then(
    async (stream) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    () => null,
  );
  return head !== null && head.length === 5 && head.toString('latin1') === '%PDF-';
}

const VIEWER_CSP =
  "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A viewer page the mobile apps open in the phone's browser: the file, named, readable at any width. */
function viewerPage(
  kind: 'image' | 'video',
  file: { name: string; src: string; poster: string | null; download: string },
): string {
  const name = escapeHtml(file.name);
  const body =
    kind === 'image'
      ? `<img src="${escapeHtml(file.src)}" alt="${name}">`
      : `<video controls playsinline preload="metadata" src="${escapeHtml(file.src)}"${file.poster ? ` poster="${escapeHtml(file.poster)}"` : ''}>Your browser cannot play this video. <a href="${escapeHtml(file.download)}">Download it</a>.</video>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} · PracticeFolio</title>
<style>
body{margin:0;background:#111827;color:#f9fafb;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header{padding:12px 16px;display:flex;gap:12px;align-items:baseline;justify-content:space-between;flex-wrap:wrap}
h1{font-size:1rem;margin:0;overflow-wrap:anywhere}
a{color:#93c5fd}
main{display:flex;justify-content:center;padding:0 0 16px}
img,video{max-width:100%;max-height:calc(100vh - 80px);height:auto;display:block}
</style></head>
<body><header><h1>${name}</h1><a href="${escapeHtml(file.download)}" download>Download</a></header>
<main>${body}</main></body></html>`;
}

const NOT_AVAILABLE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not available · PracticeFolio</title>
<style>body{margin:0;padding:24px;font:16px/1.5 system-ui,sans-serif;color:#111827}</style></head>
<body><h1>This file is not available</h1><p>Its link may have expired. Open the artifact again in the app to get a new one.</p></body></html>`;

/**
 * Stored files and their viewer pages, by capability address (no session: `<img>`, `<video>`,
 * the mobile apps' image widget and the phone's browser send none). Anything not genuine,
 * expired, or no longer readable by the capability's holder is a 404 that tells nothing more.
 */
export const uploadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['media'];
  app.get(
    '/uploads/:capability/:name',
    {
      // Sent exactly as stored: byte ranges (video seeking) and the length refer to the file itself.
      compress: false,
      schema: {
        tags,
        summary: 'A stored file, by its capability address',
        security: [],
        params: UploadParamsCapabilitySchema,
      },
    },
    async (request, reply) => {
      const file = await app.services.media.servableByCapability(request.params.capability, request.params.name);
      // A PDF (its type read from its bytes at upload, and its first bytes "%PDF-" now) opens in
      // the phone's or browser's viewer, in a sandbox; every other document stays a download.
      const pdf =
        file.kind === 'document' &&
        !file.isFormat &&
        file.mime === 'application/pdf' &&
        (await startsWithPdf(app.mediaStore.objects, request.params.name));
      const attachment = file.kind === 'document' && !file.isFormat && !pdf;
      reply
        .headers(FILE_HEADERS)
        .header(
          'cache-control',
          `private, max-age=${Math.max(0, Math.min(3600, Math.floor((file.expiresAt - Date.now()) / 1000)))}`,
        )
        .header('content-disposition', contentDisposition(attachment ? 'attachment' : 'inline', file.name));
      // Documents may be of any type: always a neutral type, so none is run or rendered by the browser.
      reply.type(attachment ? 'application/octet-stream' : file.mime);
      if (pdf) reply.header('content-security-policy', 'sandbox');
      return sendStored(request, reply, app.mediaStore.objects, request.params.name, FILE_NOT_FOUND);
    },
  );

  app.get(
    '/viewer-files/:capability/:name',
    {
      schema: {
        tags,
        summary:
          "What the portal's viewer shows of a file opened from a bare link: its name, alt text and the artifact it belongs to",
        security: [],
        params: FileCapabilityParamsSchema,
        response: { 200: ViewedFileSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return app.services.media.aboutViewed(request.params.capability, request.params.name);
    },
  );

  for (const kind of ['image', 'video'] as const) {
    app.get(
      `/${kind}s/uploads/:capability/:name`,
      {
        schema: {
          tags,
          summary: `The ${kind} viewer page the mobile apps open (\`<url>.html\`)`,
          security: [],
          params: UploadParamsCapabilitySchema,
        },
      },
      async (request, reply) => {
        const { capability } = request.params;
        const name = request.params.name.replace(/\.html$/, '');
        reply
          .header('content-security-policy', VIEWER_CSP)
          .header('cache-control', 'private, no-store')
          .type('text/html; charset=utf-8');
        const file = request.params.name.endsWith('.html')
          ? await app.services.media.viewable(capability, name, kind).catch(() => null)
          : null;
        if (!file) {
          // A browser (the phone's) gets a page; any other client the API's error.
          if (!request.headers.accept?.includes('text/html')) throw notFound(FILE_NOT_FOUND);
          return reply.status(404).send(NOT_AVAILABLE_PAGE);
        }
        const base = request.url.slice(0, request.url.indexOf(`/${kind}s/uploads/`));
        const address = (url: string) => `${base}${url}`;
        return viewerPage(kind, {
          name: file.name,
          src: address(file.display),
          poster: file.poster ? address(file.poster) : null,
          download: address(`/uploads/${capability}/${name}`),
        });
      },
    );
  }
};
