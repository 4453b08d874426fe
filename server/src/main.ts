import type * as AppModule from './app.ts';
import { loadConfigOrExit } from './config.ts';
import { openDatabase } from './database.ts';
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
  // The HTTP application (most of the server's code) is loaded while PostgreSQL starts.
  let appModule: Promise<typeof AppModule> | undefined;
  const loadApp = () => {
    if (!appModule) {
      appModule = import('./app.ts');
      appModule.catch(() => undefined);
    }
    return appModule;
  };
  const db = await openDatabase(config, bootLog, {
    whileStarting: () => void loadApp(),
    onServerReady: () => markStartup('database-started'),
  });
  markStartup('database-checked');
  const { buildApp } = await loadApp();
  const app = await buildApp({ config, db });
  markStartup('app-built');

  let closing = false;
  let stopCollector = () => undefined as void;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    stopCollector();
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    try {
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
