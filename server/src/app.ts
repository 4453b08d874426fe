import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import helmet from 'helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppConfig } from '#schemas/common';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { queryCounter, type Db } from './db/client.ts';
import { describeIssue, HttpError, isFastifyClientError, reasonOf } from './errors.ts';
import { authenticateHook } from './http/auth.ts';
import { registerCompression } from './http/compression.ts';
import { capConnectionsPerAddress } from './http/connectionCap.ts';
import { serializeError, serializeRequest } from './http/logging.ts';
import { parseJsonBody, rejectNulInUrl } from './http/requestGuards.ts';
import { createResponseSerializerCompiler } from './http/serialization.ts';
import { registerSpa } from './http/spa.ts';
import { RequestValidationError, zodValidatorCompiler } from './http/validation.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { authRoutes } from './routes/authRoutes.ts';
import { systemRoutes } from './routes/systemRoutes.ts';
import { userRoutes } from './routes/userRoutes.ts';
import { TokenService } from './security/tokens.ts';
import { createAuthService } from './services/authService.ts';
import { PrincipalCache } from './services/principalCache.ts';
import type { ServiceContext } from './services/context.ts';
import { createUserService } from './services/userService.ts';
import { discardAbandonedArtifacts, pruneExpired, PRUNE_INTERVAL_MS } from './services/housekeeping.ts';
import { createArtifactService } from './services/artifactService.ts';
import { createArchiveService, type ArchiveWorkerOptions } from './services/archiveService.ts';
import { archiveRoutes } from './routes/archiveRoutes.ts';
import { createExportService } from './services/exportService.ts';
import { createMediaService } from './services/mediaService.ts';
import { createPortfolioService } from './services/portfolioService.ts';
import { signAddresses } from './media/capabilities.ts';
import { MediaStore } from './media/mediaStore.ts';
import { mediaRoutes, uploadsRoutes } from './routes/mediaRoutes.ts';
import { portfolioRoutes } from './routes/portfolioRoutes.ts';
import { sharedRoutes } from './routes/sharedRoutes.ts';
import { exportRoutes } from './routes/exportRoutes.ts';
import { researchRoutes } from './routes/researchRoutes.ts';
import { createResearchExportService } from './services/researchExportService.ts';
import { mobileRoutes } from './routes/mobileRoutes.ts';
import { notificationRoutes, unsubscribeRoutes } from './routes/notificationRoutes.ts';
import { NotificationHub } from './services/notificationHub.ts';
import { createNotificationService } from './services/notificationService.ts';
import { PushService } from './services/pushService.ts';
import { createBundleService } from './services/bundleService.ts';
import { createDeviceService } from './services/deviceService.ts';
import { createDiscussionService } from './services/discussionService.ts';
import { createMomentChecker, createMomentService } from './services/momentService.ts';
import { momentRoutes } from './routes/momentRoutes.ts';
import { createInvitationService } from './services/invitationService.ts';
import { createSharedArtifactService } from './services/sharedArtifactService.ts';
import { createSharedPortfolioService } from './services/sharedPortfolioService.ts';
import fastifyMultipart from '@fastify/multipart';

export const API_PREFIX = '/api/v1';

declare module 'fastify' {
  interface FastifyRequest {
    /** The timer that cuts a body which does not arrive in time (see `cutSlowBodies`). */
    bodyDeadline?: NodeJS.Timeout;
  }
}

/**
 * A request body other than an upload must arrive whole within `ms`: a client that trickles its
 * body (a slow-body attack) gets 408 and its connection is closed. Uploads stream to disk for as
 * long as they keep moving (the idle timeout cuts a stalled one).
 */
function cutSlowBodies(app: FastifyInstance, ms: number): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const length = request.headers['content-length'];
    const hasBody = (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
    if (hasBody && !request.isMultipart()) {
      request.bodyDeadline = setTimeout(() => {
        const socket = request.raw.socket;
        if (!socket || socket.destroyed) return;
        request.log.warn('request body too slow: connection closed');
        socket.end('HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        socket.destroySoon();
      }, ms);
      request.bodyDeadline.unref();
    }
    done();
  });
  const clear = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    clearTimeout(request.bodyDeadline);
    done();
  };
  app.addHook('preValidation', clear);
  app.addHook('onResponse', clear);
  app.addHook('onRequestAbort', (request, done) => {
    clearTimeout(request.bodyDeadline);
    done();
  });
}

/** The user of a sign-in answer (`{jwt, user: {id, …}}`), or `null`. */
function signedInUserId(payload: unknown): number | null {
  if (payload === null || typeof payload !== 'object' || typeof (payload as { jwt?: unknown }).jwt !== 'string') return null;
  const id = (payload as { user?: { id?: unknown } }).user?.id;
  return typeof id === 'number' ? id : null;
}

function buildServices(ctx: ServiceContext, store: MediaStore, push: PushService) {
  const media = createMediaService(ctx, store);
  const shared = createSharedPortfolioService(ctx);
  const moments = createMomentChecker(ctx.db, store);
  return {
    auth: createAuthService(ctx),
    users: createUserService(ctx),
    portfolios: createPortfolioService(ctx, store),
    artifacts: createArtifactService(ctx, store),
    media,
    exports: createExportService(ctx),
    research: createResearchExportService(ctx),
    shared,
    sharedArtifacts: createSharedArtifactService(ctx, store, media),
    discussion: createDiscussionService(ctx, moments),
    moments: createMomentService(ctx, moments),
    invitations: createInvitationService(ctx, shared),
    bundle: createBundleService(ctx),
    devices: createDeviceService(ctx),
    notifications: createNotificationService(ctx, push),
  };
}
export type Services = ReturnType<typeof buildServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    db: Db;
    principals: PrincipalCache;
    notificationHub: NotificationHub;
    appConfig: AppConfig;
    mediaStore: MediaStore;
    uploadLimitBytes: number;
    contactEmail: string | null;
    publicUrl: string;
  }
}

export interface BuildOptions {
  config: Config;
  db: Db;
  /** Replaces the configured mailer (tests capture messages). */
  mailer?: Mailer;
  /**
   * `false` silences the log; otherwise the level and destination may be replaced (tests capture
   * the log). The redaction rules apply either way.
   */
  logger?: false | { level?: string; stream?: { write(line: string): void } };
  /** How the teachers' archive builder runs (tests shorten its times). */
  archives?: ArchiveWorkerOptions;
  /** Where the services read the time (tests move it on instead of waiting). */
  clock?: Clock;
}

/** Builds the whole server (API, docs and SPA) without listening. */
/** Browser features no page of the portal uses; full screen for its own videos and the embedded players. */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), midi=(), magnetometer=(), gyroscope=(), accelerometer=(), ' +
  'display-capture=(), browsing-topics=(), fullscreen=(self "https://www.youtube-nocookie.com" "https://player.vimeo.com")';

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: options.logger?.level ?? config.logLevel,
            ...(options.logger?.stream ? { stream: options.logger.stream } : {}),
            serializers: { req: serializeRequest, err: serializeError },
            redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], remove: true },
          },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestTimeout: config.timeouts.requestMs,
    connectionTimeout: config.timeouts.idleMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    // A URL that cannot be decoded gets the common error body too.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const status = error.statusCode ?? 400;
      const message = status < 500 ? 'The address of the request is not valid.' : 'An internal server error occurred.';
      void reply
        .status(status)
        .type('application/json')
        .send({ statusCode: status, error: reasonOf(status), message, code: status < 500 ? 'bad_url' : 'internal_error' });
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(createResponseSerializerCompiler({ verify: process.env['NODE_ENV'] === 'test' }));

  // Empty bodies with a JSON content type (mobile clients send the header on every call)
  // are read as "no body" instead of failing before validation. Bodies are JSON only.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // JSON is UTF-8 (RFC 8259): a body declared in another charset is refused, not misread.
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset && charset.toLowerCase() !== 'utf-8') {
      done(new HttpError(415, 'unsupported_media_type', 'Send JSON bodies in UTF-8.'), undefined);
      return;
    }
    try {
      done(null, parseJsonBody(typeof body === 'string' ? body : body.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addHook('onRequest', rejectNulInUrl);

  const mailer = options.mailer ?? createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log: app.log,
  });
  // Signed-in principals are kept per process and dropped on every change, here or in another process.
  const principals = new PrincipalCache({ ttlMs: 60_000, maxEntries: 20_000 });
  await principals.start(db);
  app.addHook('onClose', () => principals.stop());
  app.decorate('principals', principals);
  const clock = options.clock ?? systemClock;
  const ctx: ServiceContext = { db, config, tokens: new TokenService(config.jwtSecret, clock), clock, mailer, log: app.log, principals };
  const mediaStore = new MediaStore(db, config.dataDir, { ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath }, app.log);
  await mediaStore.init();
  app.decorate('db', db);
  app.decorate('mediaStore', mediaStore);
  app.decorate('uploadLimitBytes', config.uploadLimitBytes);
  app.decorate('contactEmail', config.contactEmail);
  app.decorate('publicUrl', config.publicUrl);
  app.decorate('services', buildServices(ctx, mediaStore, new PushService(db, config.fcm ?? null, app.log)));
  app.addHook('onClose', () => app.services.research.close());
  // Live unread counts and delivery: every process hears every change through LISTEN/NOTIFY (decision 020).
  const notificationHub = new NotificationHub(db, {
    unread: (userId) => app.services.notifications.unread(userId),
    alive: (stream) => app.services.notifications.streamAlive(stream),
    recorded: () => void app.services.notifications.deliverSoon(),
    warn: (error, message) => app.log.warn({ err: error }, message),
  });
  await notificationHub.start();
  app.decorate('notificationHub', notificationHub);
  let stopScheduler = () => undefined as void;
  // Before the server closes: open event streams would otherwise hold it open.
  app.addHook('preClose', async () => {
    stopScheduler();
    await notificationHub.stop();
  });
  app.decorate('archives', createArchiveService(ctx, { archives: path.join(config.dataDir, 'archives'), uploads: mediaStore.dir }, options.archives));
  app.decorate('appConfig', {
    showcaseUrl: config.showcaseUrl,
    helpUrl: config.helpUrl,
    feedbackUrl: config.feedbackUrl,
    contactEmail: config.contactEmail,
    researchEmail: config.researchEmail,
    aboutVideoId: config.aboutVideoId,
    learnMoreUrl: config.learnMoreUrl,
    iosAppUrl: config.iosAppUrl,
    androidAppUrl: config.androidAppUrl,
  });
  // Rate-limit events, used or expired codes and abandoned new artifacts would otherwise pile up for ever.
  const housekeeping = () =>
    pruneExpired(db)
      .then(() => discardAbandonedArtifacts(db, mediaStore))
      .then(() => app.archives.prune());
  await housekeeping();
  // After the housekeeping, so that a starting process runs one statement at a time (decision 020).
  stopScheduler = app.services.notifications.startScheduler();
  const pruning = setInterval(() => {
    housekeeping().catch((error: unknown) => app.log.warn({ err: error }, 'could not prune expired rows'));
  }, PRUNE_INTERVAL_MS);
  pruning.unref();
  app.addHook('onClose', async () => clearInterval(pruning));
  // Teachers' archives are built in the background once the server is ready; a build under way
  // when it stops goes back to the queue.
  app.addHook('onReady', async () => app.archives.worker.start());
  app.addHook('preClose', async () => app.archives.worker.stop());

  if (config.queryCountHeader) {
    // Diagnostics for the benchmarks: how many SQL statements each request ran.
    app.addHook('onRequest', async () => {
      queryCounter.enterWith({ count: 0 });
    });
    app.addHook('onSend', async (_request, reply) => {
      reply.header('x-query-count', String(queryCounter.getStore()?.count ?? 0));
    });
  }
  app.server.headersTimeout = config.timeouts.headersMs;
  capConnectionsPerAddress(app.server, config.maxConnectionsPerAddress);
  cutSlowBodies(app, config.timeouts.bodyMs);
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: config.uploadLimitBytes, files: 1 } });
  // Before every route: API answers over 1 KiB are compressed (decision 018).
  await registerCompression(app, API_PREFIX);
  // The multipart parser accepts a form on every route; only the upload routes read one, so
  // elsewhere a form would be taken for "no body" and its content silently ignored.
  app.addHook('preValidation', async (request) => {
    if (request.isMultipart() && !request.routeOptions.schema?.consumes?.includes('multipart/form-data')) {
      throw new HttpError(415, 'unsupported_media_type', 'This content type is not accepted here.');
    }
  });
  // Helmet's middleware is built once (a per-request build costs a tenth of a small answer's CPU).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ['https://www.youtube-nocookie.com', 'https://player.vimeo.com'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // `frame-ancestors 'none'` says it for every browser that matters.
    xFrameOptions: false,
    // Sent below, over HTTPS only.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    // HTTPS as this server sees it: its own TLS, or `X-Forwarded-Proto` from a trusted proxy (TRUST_PROXY).
    if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, 'too_many_requests', `Too many attempts, please try again in ${context.after}.`),
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'PracticeFolio API',
        description: 'The API of the PracticeFolio portal and its mobile apps.',
        version: '1.0.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: `${API_PREFIX}/docs`, staticCSP: false });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());

  app.setErrorHandler((error, request, reply) => {
    const nested = request.url.startsWith(`${API_PREFIX}/auth/`);
    let status: number;
    let message: string;
    let code: string;
    if (error instanceof RequestValidationError) {
      status = 400;
      code = 'validation_error';
      message = error.issues[0] ? describeIssueOf(error) : 'The request is not valid.';
    } else if (error instanceof HttpError) {
      status = error.statusCode;
      code = error.code;
      message = error.message;
    } else if (isFastifyClientError(error)) {
      status = error.statusCode!;
      code = (typeof error.code === 'string' ? error.code : 'bad_request').toLowerCase();
      message = clientErrorMessage(error.code, error.message);
    } else {
      request.log.error({ err: error }, 'unexpected error');
      status = 500;
      code = 'internal_error';
      message = 'An internal server error occurred.';
    }
    const body = {
      statusCode: status,
      error: reasonOf(status),
      message: nested || (error instanceof HttpError && error.nested)
        ? [{ messages: [{ id: `Auth.${code}`, message }] }]
        : message,
      code,
    };
    if (status >= 500) request.log.warn({ status, code }, 'request failed');
    reply.status(status).type('application/json').serializer(JSON.stringify).send(body);
  });

  // Every address of a stored file in an answer becomes a capability for the caller (or, in a
  // sign-in answer, for the user who signed in): `<img>`, `<video>` and the mobile apps fetch
  // files without a session.
  app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
    const userId = request.user?.id ?? signedInUserId(payload);
    if (userId !== null) signAddresses(payload, app.services.media.signFor(userId));
    return payload;
  });

  await app.register(systemRoutes, { prefix: API_PREFIX });
  await app.register(authRoutes, { prefix: API_PREFIX });
  await app.register(unsubscribeRoutes, { prefix: API_PREFIX });
  await app.register(
    async (protectedApp) => {
      protectedApp.addHook('onRequest', authenticateHook());
      await protectedApp.register(userRoutes);
      await protectedApp.register(portfolioRoutes);
      await protectedApp.register(mediaRoutes);
      await protectedApp.register(sharedRoutes);
      await protectedApp.register(mobileRoutes);
      await protectedApp.register(archiveRoutes);
      await protectedApp.register(notificationRoutes);
      await protectedApp.register(momentRoutes);
    },
    { prefix: API_PREFIX },
  );
  // CSV downloads are opened by links, which cannot send a header: the session cookie counts here (read-only routes).
  await app.register(
    async (filesApp) => {
      filesApp.addHook('onRequest', authenticateHook());
      await filesApp.register(exportRoutes);
      await filesApp.register(researchRoutes);
    },
    { prefix: API_PREFIX },
  );
  // Stored files and their viewer pages answer to capability addresses alone (no session).
  await app.register(uploadsRoutes, { prefix: API_PREFIX });

  registerSpa(app, config);
  return app;
}

function describeIssueOf(error: RequestValidationError): string {
  // An unknown field explains the request best (a misspelt name also shows up as a missing one).
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0]!;
  if (issue.path.length === 0 && issue.code === 'invalid_type' && (issue.input === null || issue.input === undefined)) {
    return error.part === 'body' ? 'The request body is required.' : 'The request is missing its parameters.';
  }
  return describeIssue(issue, error.part);
}

function clientErrorMessage(code: string, fallback: string): string {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not accepted here.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is required.';
    case 'FST_STATIC_FORBIDDEN_PATH':
      return 'This address is not allowed: it must not contain "." or ".." segments, backslashes or empty segments.';
    default:
      return fallback;
  }
}
