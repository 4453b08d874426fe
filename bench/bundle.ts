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
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'dist', '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    Chunk
  >;
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
  // Routes: what the shell loads on demand (its `import()`s: the pages, the bell, the feed). The
  // other lazily loaded chunks are parts within pages (e.g. the video players, notes and caption
  // editor), loaded when the page shows them: a route is measured without them, and each route
  // also with every part it may load.
  const routeKeys = new Set((manifest[entryKey]!.dynamicImports ?? []).filter((k) => manifest[k]?.isDynamicEntry));
  const ownKb = (keys: Set<string>) =>
    kB(entry + [...files(keys)].filter((f) => !entryFiles.has(f)).reduce((n, f) => n + gz(f), 0));
  /** A route's static closure and, with `parts`, every in-page part it may load (transitively). */
  const routeClosure = (key: string, parts: boolean): Set<string> => {
    const keys = closure(key);
    if (!parts) return keys;
    const queue = [...keys];
    while (queue.length > 0) {
      for (const dynamic of manifest[queue.pop()!]?.dynamicImports ?? []) {
        if (routeKeys.has(dynamic) || keys.has(dynamic)) continue;
        for (const k of closure(dynamic)) {
          if (keys.has(k)) continue;
          keys.add(k);
          queue.push(k);
        }
      }
    }
    return keys;
  };
  const routes = [...routeKeys]
    .map((key) => ({
      route: manifest[key]!.src ?? key,
      kb: ownKb(routeClosure(key, false)),
      withPartsKb: ownKb(routeClosure(key, true)),
    }))
    .sort((a, b) => b.kb - a.kb);
  // Each part: what it adds to a route that loads it (the least, where several do).
  const parts = Object.entries(manifest)
    .filter(([key, c]) => c.isDynamicEntry && !routeKeys.has(key))
    .map(([key, c]) => {
      const loaders = [...routeKeys]
        .map((r) => closure(r))
        .filter((keys) => [...keys].some((k) => manifest[k]?.dynamicImports?.includes(key)));
      const adds = (keys: Set<string>) =>
        size(new Set([...files(closure(key))].filter((f) => !entryFiles.has(f) && !files(keys).has(f))));
      return { part: c.src ?? key, addsKb: kB(Math.min(...loaders.map(adds))) };
    })
    .sort((a, b) => b.addsKb - a.addsKb);
  const login = routes.find((r) => /LoginPage|authRoutes/.test(r.route));
  return { entryKb: kB(entry), loginKb: login?.kb ?? kB(entry), largest: routes[0] ?? null, routes, parts };
}
