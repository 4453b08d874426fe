/** Gzipped size of the JavaScript and CSS each route loads, from the build manifest. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureSpaBuilt, ROOT } from './support.ts';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

function gz(file: string): number {
  return gzipSync(readFileSync(path.join(ROOT, 'dist', file)), { level: 9 }).length;
}

const kB = (bytes: number) => Math.round(bytes / 100) / 10;

/** Builds the SPA when out of date and measures the entry and every lazily loaded route chunk (kB: 1,000 bytes). */
export function runBundleBench() {
  ensureSpaBuilt();
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'dist', '.vite', 'manifest.json'), 'utf8')) as Record<string, Chunk>;
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
    return seen;
  };
  const files = (keys: Set<string>) => {
    const out = new Set<string>();
    for (const k of keys) {
      const c = manifest[k]!;
      out.add(c.file);
      for (const css of c.css ?? []) out.add(css);
    }
    return out;
  };
  const size = (set: Set<string>) => [...set].reduce((n, f) => n + gz(f), 0);
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const entryFiles = files(closure(entryKey));
  const entry = size(entryFiles);
  const routes = Object.entries(manifest)
    .filter(([, c]) => c.isDynamicEntry)
    .map(([key, c]) => {
      const own = [...files(closure(key))].filter((f) => !entryFiles.has(f));
      return { route: c.src ?? key, kb: kB(entry + own.reduce((n, f) => n + gz(f), 0)) };
    })
    .sort((a, b) => b.kb - a.kb);
  const login = routes.find((r) => /LoginPage|authRoutes/.test(r.route));
  return { entryKb: kB(entry), loginKb: login?.kb ?? kB(entry), largest: routes[0] ?? null, routes };
}
