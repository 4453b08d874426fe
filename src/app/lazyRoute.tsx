import { lazy, Suspense, useState, type ComponentType } from 'react';
import { PageSkeleton } from '../views/components/PageSkeleton.tsx';

type AnyComponent = ComponentType<Record<string, unknown>>;

/** Every lazily loaded route, so that they can be loaded ahead of use (`preloadRoutes`). */
const preloaders: (() => Promise<void>)[] = [];

/**
 * A route component loaded on first use (its own bundle chunk), showing the page skeleton while
 * it arrives. `name` picks the named export of the wiring module. Once the module is there, a
 * route rendered afterwards shows the page at once, without the skeleton.
 */
export function lazyRoute<M extends Record<string, unknown>, K extends keyof M & string>(load: () => Promise<M>, name: K): M[K] {
  let loaded: AnyComponent | null = null;
  const loadComponent = async (): Promise<AnyComponent> => {
    loaded ??= (await load())[name] as AnyComponent;
    return loaded;
  };
  preloaders.push(async () => {
    await loadComponent();
  });
  const Lazy = lazy(async () => ({ default: await loadComponent() }));
  function LazyRoute(props: Record<string, unknown>) {
    // Decided once per mount, so that a page never remounts (losing its state) when its module arrives.
    const [Ready] = useState<AnyComponent | null>(() => loaded);
    if (Ready) return <Ready {...props} />;
    return (
      <Suspense fallback={<PageSkeleton />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyRoute.displayName = `Lazy(${name})`;
  return LazyRoute as unknown as M[K];
}

/** Loads every lazily loaded route now (tests use it so that pages render without waiting). */
export async function preloadRoutes(): Promise<void> {
  await Promise.all(preloaders.map((preload) => preload()));
}
