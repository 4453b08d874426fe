import { existsSync, readFileSync } from 'node:fs';

/**
 * The scripts a page's address needs beyond the entry, named in `index.html` as
 * `<link rel="modulepreload">` so that the browser fetches them with the entry instead of one
 * round trip after another (entry → session check → page chunk → the parts it loads).
 */

/** One chunk of the build manifest (`dist/.vite/manifest.json`, written by Vite). */
interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

/**
 * The lazily loaded modules (the manifest's keys: their source paths) of the signed-in pages a
 * visitor most often opens first, by address (the routes of `src/app/App.tsx`). Only pages whose
 * first render needs them: an artifact's discussion, not the editors opened from it.
 */
export const PAGE_MODULES: { pattern: RegExp; modules: string[] }[] = [
  { pattern: /^\/dashboard$/, modules: ['src/app/wiring/dashboardRoute.tsx'] },
  { pattern: /^\/my-portfolios(\/[0-9]+(\/artifacts\/[0-9]+)?)?$/, modules: ['src/app/wiring/portfolioRoutes.tsx'] },
  {
    pattern: /^\/shared-portfolios\/[0-9]+\/artifacts\/[0-9]+$/,
    modules: ['src/app/wiring/sharedRoutes.tsx', 'src/views/shared/browser/SharedDiscussion.tsx'],
  },
  { pattern: /^\/shared-portfolios(\/[0-9]+)?$/, modules: ['src/app/wiring/sharedRoutes.tsx'] },
];

/** What every signed-in page draws once the session is checked: the header's account tools, the notification feed. */
export const SIGNED_IN_MODULES = ['src/views/layout/AccountTools.tsx', 'src/app/wiring/notificationFeed.ts'];

/** Reads the build manifest, or `null` when the build wrote none. */
export function readManifest(file: string): Manifest | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : null;
}

/**
 * The files (`assets/…`) to preload for `pathName` of a visitor who has a session: the page's
 * modules and the signed-in frame's, with everything they import, less what the entry already
 * loads (`index.html` names those itself). None for other pages or without a session.
 */
export function preloadFiles(manifest: Manifest, pathName: string, signedIn: boolean): string[] {
  if (!signedIn) return [];
  const trimmed = pathName.length > 1 ? pathName.replace(/\/$/, '') : pathName;
  const page = PAGE_MODULES.find(({ pattern }) => pattern.test(trimmed));
  if (!page) return [];
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  const loaded = new Set<string>();
  const closure = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(key)) return;
    into.add(key);
    for (const dep of chunk.imports ?? []) closure(dep, into);
  };
  if (entryKey) closure(entryKey, loaded);
  const wanted = new Set<string>();
  for (const key of [...page.modules, ...SIGNED_IN_MODULES]) closure(key, wanted);
  return [...wanted].filter((key) => !loaded.has(key)).map((key) => manifest[key]!.file);
}

/** The `<link>` elements for `files`, as Vite writes the entry's own. */
export function preloadLinks(files: string[]): string {
  return files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');
}
