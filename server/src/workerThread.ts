import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Where a worker thread's code is, seen from the module that starts it (`import.meta.url`). */
export interface WorkerCode {
  /** The starting module's `import.meta.url`. */
  from: string;
  /** The compiled file beside the compiled server (`scripts/build-server.mjs`), e.g. `tus-writer.js`. */
  compiled: string;
  /** The TypeScript source: `new URL('./tusWriterWorker.ts', import.meta.url)`. */
  source: URL;
}

/**
 * Starts a worker thread: the compiled file beside the compiled server, or the TypeScript source
 * through tsx when the server runs from its sources (tests, `npm run dev`).
 */
export function startWorker(code: WorkerCode, options: WorkerOptions): Worker {
  if (!code.from.endsWith('.ts')) {
    const compiled = [`./${code.compiled}`, `../${code.compiled}`]
      .map((p) => new URL(p, code.from))
      .find((u) => existsSync(fileURLToPath(u)));
    if (!compiled) throw new Error(`${code.compiled} is missing beside the compiled server: run npm run build`);
    return new Worker(compiled, options);
  }
  const source = code.source.href;
  // tsx's ES module API (`require` finds its CommonJS one, whose hooks fail in a worker).
  const tsx = pathToFileURL(
    createRequire(code.from)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`,
    { ...options, eval: true },
  );
}
