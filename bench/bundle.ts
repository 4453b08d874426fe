/** Gzipped size of the JavaScript and CSS each route loads, from the build manifest. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from './support.ts';

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

/** Builds the SPA and measures the entry and every lazily loaded route chunk. */
export function runBundleBench() {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' });
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
      return { route: c.src ?? key, kib: Math.round(((entry + own.reduce((n, f) => n + gz(f), 0)) / 1024) * 10) / 10 };
    })
    .sort((a, b) => b.kib - a.kib);
  const login = routes.find((r) => /LoginPage|authRoutes/.test(r.route));
  return { entryKiB: Math.round((entry / 1024) * 10) / 10, loginKiB: login?.kib ?? Math.round((entry / 1024) * 10) / 10, largest: routes[0] ?? null, routes };
}
