import { PageSkeleton } from '../views/components/PageSkeleton.tsx';
import { lazyPart, preloadParts } from '../views/components/lazyParts.tsx';

/**
 * A route component loaded on first use (its own bundle chunk), showing the page skeleton while
 * it arrives. `name` picks the named export of the wiring module. Once the module is there, a
 * route rendered afterwards shows the page at once, without the skeleton.
 */
export function lazyRoute<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): M[K] {
  return lazyPart(load, name, <PageSkeleton />);
}

/** Loads every lazily loaded route (and part within a page) now (tests use it so that pages render without waiting). */
export const preloadRoutes = preloadParts;
