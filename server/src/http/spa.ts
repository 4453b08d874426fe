import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { publicAppConfig, type Config } from '../config.ts';
import { isNotModified } from './conditionalRequest.ts';
import { preloadFiles, preloadLinks, readManifest, type Manifest } from './spaPreload.ts';
import { SESSION_MARKER_COOKIE } from './webSession.ts';

/** Built files whose names carry a hash of their content: a new build gives them new names. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Everything else: the browser keeps it but asks (cheaply, with a validator) before each use. */
const REVALIDATE_CACHE = 'no-cache';

type Coding = 'br' | 'gzip';

/** One representation of the page: its bytes and its strong validator. */
interface Representation {
  body: Buffer;
  etag: string;
}

/** The page as served since `mtimeMs`: plain, brotli and gzip (compressed once, not per request). */
interface Page {
  mtimeMs: number;
  identity: Representation;
  br: Representation;
  gzip: Representation;
}

/** The content coding to send: the best of brotli and gzip that `accept-encoding` allows, or none. */
export function preferredCoding(acceptEncoding: string | undefined): Coding | null {
  const quality = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.map((p) => /^q=([0-9.]+)$/.exec(p)?.[1]).find((value) => value !== undefined);
    quality.set(name, q === undefined ? 1 : Number(q));
  }
  const of = (name: Coding) => quality.get(name) ?? quality.get('*') ?? 0;
  const best = of('br') >= of('gzip') ? 'br' : 'gzip';
  return of(best) > 0 ? best : null;
}

/**
 * Builds the page's three representations. The validator is a hash of the final HTML (the
 * configuration included), with the coding appended for the compressed ones: a strong validator
 * names exactly one sequence of bytes.
 */
function representations(mtimeMs: number, html: string): Page {
  const identity = Buffer.from(html, 'utf8');
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  return {
    mtimeMs,
    identity: { body: identity, etag: `"${hash}"` },
    br: {
      body: brotliCompressSync(identity, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
      }),
      etag: `"${hash}-br"`,
    },
    gzip: { body: gzipSync(identity, { level: constants.Z_BEST_COMPRESSION }), etag: `"${hash}-gzip"` },
  };
}

/**
 * Security headers that only a document (a page, not a script or style sheet it loads) obeys.
 * `x-content-type-options`, `cross-origin-resource-policy` and `strict-transport-security` stay.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'permissions-policy',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/** A JSON data block of the page (`</` cannot end it early). */
const embeddedJson = (id: string, value: unknown) =>
  `<script id="${id}" type="application/json">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;

/**
 * Serves the built SPA, and `index.html` (with the run-time configuration and the ways to sign in:
 * `GET /config` and `GET /auth/methods` as embedded data) for its routes.
 */
export function registerSpa(app: FastifyInstance, { staticDir }: Pick<Config, 'staticDir'>): void {
  const indexFile = path.join(staticDir, 'index.html');
  const assetsDir = path.join(staticDir, 'assets') + path.sep;
  const hasSpa = existsSync(indexFile);
  // A folder ("/", "/assets/") is never a file: the SPA page or a 404 answers it, not a 403.
  // Addresses under the API are never files either (an API path that matched no route).
  const allowedPath = (pathName: string) => !pathName.endsWith('/') && !/^\/api(\/|$)/.test(pathName);
  // Stored files of this machine's folder are sent with `reply.sendFile` (see `sendStored`), exactly as
  // stored (the folder also holds the incoming files of an S3 store).
  const uploads = path.join(app.config.dataDir, 'uploads');
  mkdirSync(uploads, { recursive: true, mode: 0o700 });
  void app.register(fastifyStatic, { root: uploads, serve: false, allowedPath });
  if (hasSpa) {
    void app.register(fastifyStatic, {
      root: staticDir,
      decorateReply: false,
      index: false,
      // Files are looked up per request, so a rebuilt SPA is served without a restart.
      wildcard: true,
      allowedPath,
      // `x.js.br` or `x.js.gz`, written beside each file by the build, when the client accepts it.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        if (filePath.startsWith(assetsDir)) {
          reply.header('cache-control', IMMUTABLE_CACHE);
          // A built script or style sheet is never a document: the headers only a document obeys
          // go with the page, not with each of its files (about 700 bytes a file).
          for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
          // A hashed file never changes, and is never asked for again while cached: nothing to
          // revalidate it with, and no ranges of it (each header a few dozen bytes a file).
          for (const name of ['etag', 'last-modified', 'accept-ranges']) reply.removeHeader(name);
        } else {
          reply.header('cache-control', REVALIDATE_CACHE);
        }
      },
      prefix: '/',
    });
  }

  const manifestFile = path.join(staticDir, '.vite', 'manifest.json');
  // The page as built, with the configuration, and its variants by the scripts they preload (a
  // handful: one per kind of page), each compressed once; all dropped when the build changes.
  let built: { mtimeMs: number; html: string; manifest: Manifest | null; variants: Map<string, Page> } | null = null;
  const page = (request: FastifyRequest): Page => {
    const mtimeMs = statSync(indexFile).mtimeMs;
    if (built?.mtimeMs !== mtimeMs) {
      const html = readFileSync(indexFile, 'utf8').replace(
        '<!--app-config-->',
        embeddedJson('app-config', publicAppConfig(app.config)) +
          // The sign-in page's buttons come with the page: no request, and no schema library, before it is complete.
          embeddedJson('sign-in-methods', app.services.sso.methods()),
      );
      built = { mtimeMs, html, manifest: readManifest(manifestFile), variants: new Map() };
    }
    const signedIn = request.cookies[SESSION_MARKER_COOKIE] !== undefined;
    const pathName = request.url.split('?')[0] ?? '/';
    const links = built.manifest ? preloadLinks(preloadFiles(built.manifest, pathName, signedIn)) : '';
    let variant = built.variants.get(links);
    if (!variant) {
      variant = representations(mtimeMs, links ? built.html.replace('</head>', `${links}</head>`) : built.html);
      built.variants.set(links, variant);
    }
    return variant;
  };
  /** The page, compressed when the client accepts it, or 304 when the client's copy is current. */
  const sendPage = (request: FastifyRequest, reply: FastifyReply): void => {
    const current = page(request);
    const coding = preferredCoding(request.headers['accept-encoding']);
    const chosen = coding ? current[coding] : current.identity;
    // The scripts the page preloads follow the session marker cookie.
    reply.header('cache-control', REVALIDATE_CACHE).header('vary', 'accept-encoding, cookie');
    if (isNotModified(request, reply, { etag: chosen.etag })) {
      reply.code(304).send();
      return;
    }
    if (coding) reply.header('content-encoding', coding);
    reply.type('text/html; charset=utf-8').send(chosen.body);
  };

  if (hasSpa) {
    // `/` is the folder of the static files; the app's start page answers it instead.
    app.get('/', { schema: { hide: true } }, sendPage);
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (hasSpa && request.method === 'GET' && wantsHtml && !/^\/api(\/|\?|$)/.test(request.url)) {
      sendPage(request, reply);
      return;
    }
    reply
      .status(404)
      .type('application/json')
      .send({
        statusCode: 404,
        error: 'Not Found',
        message: `No route ${request.method} ${request.url.split('?')[0]}.`,
        code: 'not_found',
      });
  });
}
