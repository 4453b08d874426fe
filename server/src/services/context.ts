import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { TokenService } from '../security/tokens.ts';
import type { PrincipalCache } from './principalCache.ts';

/** What every service is built from. */
export interface ServiceContext {
  db: Db;
  config: Config;
  tokens: TokenService;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Where the services read the time. */
  clock: Clock;
  /** The per-process cache of signed-in principals (absent: every request reads the database). */
  principals?: PrincipalCache;
}

/** Whether a database error is a unique-constraint violation. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
