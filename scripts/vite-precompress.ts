import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; everything else (images, fonts, maps) is sent as it is. */
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;

/**
 * Smaller files are sent as they are. Files from here up get a compressed copy when it is smaller
 * (a 700-byte runtime chunk the sign-in page loads is 400 bytes in brotli).
 */
const MIN_BYTES = 256;

/** Every file under `dir`, skipping folders of build metadata (`.vite`). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name.startsWith('.') ? [] : filesUnder(full);
      return [full];
    }),
  );
  return nested.flat();
}

/** Writes `<file>.br` and `<file>.gz` beside `file`, at the highest settings (done once, at build time). */
async function compressBeside(file: string): Promise<void> {
  const content = await readFile(file);
  if (content.length < MIN_BYTES) {
    // A copy left by an earlier build into the same folder would be served instead of the file.
    await Promise.all([rm(`${file}.br`, { force: true }), rm(`${file}.gz`, { force: true })]);
    return;
  }
  const [br, gz] = await Promise.all([
    brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
    gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  // A copy no smaller than the file is not worth its `content-encoding` header.
  const keep = (name: string, copy: Buffer) =>
    copy.length < content.length - 32 ? writeFile(name, copy) : rm(name, { force: true });
  await Promise.all([keep(`${file}.br`, br), keep(`${file}.gz`, gz)]);
}

/**
 * Once the bundle is written, puts a brotli (`.br`) and a gzip (`.gz`) copy beside every text
 * file of the output (the copied public files included), so that the server sends them as they
 * are instead of compressing on every request.
 */
export function precompress(): Plugin {
  return {
    name: 'practicefolio:precompress',
    apply: 'build',
    async writeBundle(options) {
      const outDir = options.dir;
      if (!outDir) return;
      const files = (await filesUnder(outDir)).filter((file) => TEXT_FILE.test(file));
      await Promise.all(files.map(compressBeside));
    },
  };
}
