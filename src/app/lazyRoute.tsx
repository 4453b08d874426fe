import { lazy, Suspense, type ComponentType } from 'react';
import { PageSkeleton } from '../views/components/PageSkeleton.tsx';

/**
 * A route component loaded on first use (its own bundle chunk), showing the page skeleton while
 * it arrives. `name` picks the named export of the wiring module.
 */
export function lazyRoute<M extends Record<string, unknown>, K extends keyof M & string>(load: () => Promise<M>, name: K): M[K] {
  const Lazy = lazy(async () => ({ default: (await load())[name] as ComponentType<Record<string, unknown>> }));
  function LazyRoute(props: Record<string, unknown>) {
    return (
      <Suspense fallback={<PageSkeleton />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyRoute.displayName = `Lazy(${name})`;
  return LazyRoute as unknown as M[K];
}
