import type { FastifyRequest } from 'fastify';

/**
 * Per-person limits on writes that cost others something (e-mails sent, accounts made, disk,
 * CPU): counted per signed-in user, after authentication, in the counter store shared by every
 * node (PostgreSQL, or Redis with `REDIS_URL`), so they hold for every node together. Generous for
 * a teacher's real work (a class's photos, a lively discussion), short of a flood.
 */
const perUser = (max: number, timeWindow: string) => ({
  rateLimit: {
    max,
    timeWindow,
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => `user:${request.user.id}`,
  },
});

export const USER_LIMITS = {
  /** Invitations and new accounts: each may create an account and sends an e-mail. */
  invitations: perUser(30, '10 minutes'),
  /** Comments and reactions. */
  discussion: perUser(60, '1 minute'),
  /** Uploads (each file costs disk, and CPU for its previews). */
  uploads: perUser(300, '10 minutes'),
  /** Resumable uploads created (each reserves room; its chunks are not counted). */
  resumableUploads: perUser(120, '10 minutes'),
  /** Caption tracks added, changed or deleted (each stores up to 512 KiB). */
  captions: perUser(60, '10 minutes'),
  /** Archives asked for (each build copies all of the person's files). */
  archives: perUser(10, '1 hour'),
  /** Private notes written, changed or deleted. */
  notes: perUser(120, '10 minutes'),
  /**
   * Saves of an artifact or a shared artifact (created with answers, answers merged or saved): each
   * records a version that is kept for the artifact's life (decision 049). Two saves a second for
   * ten minutes are far beyond anyone typing.
   */
  saves: perUser(1200, '10 minutes'),
  /** Researchers' changes to accounts' sign-in methods (unlinking an identity). */
  accountChanges: perUser(60, '10 minutes'),
  /** Passwords set (each costs a slow hash, and checking the current one another). */
  passwordChanges: perUser(10, '1 hour'),
  /** Restores of earlier versions (each a save: a new version, files linked or unlinked). */
  restores: perUser(60, '10 minutes'),
  /** Rubrics made or changed, and a shared portfolio's rubric chosen. */
  rubrics: perUser(60, '10 minutes'),
  /** Scores given or deleted: a coach scoring a lesson live gives a few a minute. */
  scores: perUser(120, '10 minutes'),
  /** Push tokens registered. */
  pushTokens: perUser(30, '10 minutes'),
} as const;
