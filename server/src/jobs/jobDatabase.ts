import type pg from 'pg';
import type { Queryable } from '../db/client.ts';

/*
 * Where the job engine keeps its jobs (its schema in the server's database, its connections):
 * shared by the engine and the administrator's queries.
 */

/** The engine's own schema: `pgboss`, or next to a schema of the search path (tests' own schemas). */
export async function schemaOf(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ schema: string }>('SELECT current_schema() AS schema');
  const current = rows[0]?.schema ?? 'public';
  return current === 'public' ? 'pgboss' : `${current}_jobs`;
}

/** The message of what a failed job ended with (its output). */
export function errorText(output: unknown): string {
  if (output && typeof output === 'object' && 'message' in output && typeof output.message === 'string')
    return output.message;
  return output === null || output === undefined ? 'unknown error' : JSON.stringify(output);
}

/** pg-boss's connection settings for the server's database. */
export function connectionOf(settings: pg.ClientConfig) {
  return {
    ...(settings.host ? { host: settings.host } : {}),
    ...(settings.port ? { port: settings.port } : {}),
    ...(settings.user ? { user: settings.user } : {}),
    ...(settings.database ? { database: settings.database } : {}),
    ...(settings.options ? { options: settings.options } : {}),
    ...(typeof settings.password === 'string' ? { password: settings.password } : {}),
    ...(settings.connectionString ? { connectionString: settings.connectionString } : {}),
    ...(settings.ssl ? { ssl: settings.ssl } : {}),
    application_name: `${settings.application_name ?? 'practicefolio'}-jobs`,
  };
}

/** Whether the engine's schema is there (a server has started on this database). */
export async function installed(db: Queryable, schema: string): Promise<boolean> {
  const { rows } = await db.query<{ here: boolean }>('SELECT to_regclass($1) IS NOT NULL AS here', [`${schema}.job`]);
  return rows[0]?.here ?? false;
}
