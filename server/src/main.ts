import { loadConfigOrExit } from './config.ts';
import { openDatabase } from './database.ts';
import { openingDb } from './db/opening.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './db/demo.ts';
import { collectWhenIdle } from './http/idleCollector.ts';
import { markStartup } from './startupTiming.ts';

markStartup('server-loaded');

/** Starts the server: configuration, database, HTTP; stops cleanly on SIGINT / SIGTERM. */
async function main(): Promise<void> {
  // Everything the server writes (database files, uploads, mail, secrets) is for this account only.
  process.umask(0o077);
  const config = loadConfigOrExit();
  const bootLog = { info: (msg: string) => process.stdout.write(`${msg}\n`) };
  // The HTTP application (most of the server's code) is loaded and built while PostgreSQL starts:
  // it gets the database at once, and its calls wait until the database is open and migrated.
  let spawned = () => undefined as void;
  const started = new Promise<void>((resolve) => (spawned = resolve));
  const opening = openDatabase(config, bootLog, {
    whileStarting: spawned,
    onServerReady: () => markStartup('database-started'),
  });
  await Promise.race([started, opening]);
  markStartup('app-build-started');
  // The job engine starts once the server listens: no answer waits for it, a job sent meanwhile does.
  const app = await import('./app.ts').then(({ buildApp }) =>
    buildApp({ config, db: openingDb(opening), jobs: { afterListening: true } }),
  );
  markStartup('app-built');
  const db = await opening;
  markStartup('database-checked');

  let closing = false;
  let stopCollector = () => undefined as void;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    stopCollector();
    // Readiness answers 503 from now on; behind a load balancer the node keeps serving while the
    // balancer notices (DRAIN_SECONDS), then stops listening and finishes the requests under way.
    app.lifecycle.draining = true;
    app.log.info({ signal, drainMs: config.drainMs }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), config.drainMs + 10_000);
    timer.unref();
    try {
      if (config.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.drainMs));
      await app.close();
      await db.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  markStartup('listening');
  // A stop that comes while the job engine starts ends what it was doing.
  await app.background.startJobs().catch((error: unknown) => {
    if (!closing) throw error;
  });
  markStartup('jobs-started');
  // Memory taken by a burst of requests goes back once the server is quiet again.
  stopCollector = collectWhenIdle(app.server);
  const url = config.publicUrl;
  const lines = [
    `PracticeFolio is running at ${url}`,
    `  database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded, in ${config.dataDir}/db`}`,
  ];
  if (config.demoSignIn) {
    lines.push(`  demo accounts (password "${DEMO_PASSWORD}"):`);
    for (const a of DEMO_ACCOUNTS) lines.push(`    ${a.email.padEnd(26)} ${a.roleName}`);
  } else {
    lines.push('  reachable from other machines: demo accounts cannot sign in; create the first researcher with');
    lines.push('    npm run admin -- create-researcher <e-mail> <name>');
  }
  if (!config.smtpUrl) lines.push(`  e-mail goes to ${config.dataDir}/outbox (set SMTP_URL to send it)`);
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
