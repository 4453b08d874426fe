import { startTransition, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';

type AnyComponent = ComponentType<Record<string, unknown>>;

/** Every part loaded on first use, so that they can be loaded ahead of use (`preloadParts`). */
const preloaders: (() => Promise<unknown>)[] = [];

/**
 * A component loaded on first use (its own bundle chunk), showing `fallback` while it arrives.
 * `name` picks the named export of the module. Once the module is there, a part rendered
 * afterwards shows at once, without the fallback.
 *
 * The module's arrival is an ordinary state update, not a suspension: React holds back the commit
 * of content that a Suspense boundary waited for until 300 ms after any boundary last showed a
 * fallback, so a page whose chunk came from the cache in a few milliseconds was drawn (and began
 * to fetch its data) only some 300 ms after its skeleton (decision 045). The update is a
 * transition: React then renders the part in slices, giving the browser its turn every few
 * milliseconds, instead of in one task (the fallback stays on screen meanwhile).
 */
export function lazyPart<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
  fallback: ReactNode,
): M[K] {
  let loaded: AnyComponent | null = null;
  const loadComponent = async (): Promise<AnyComponent> => {
    loaded ??= (await load())[name] as AnyComponent;
    return loaded;
  };
  preloaders.push(loadComponent);
  function LazyPart(props: Record<string, unknown>) {
    // The component, or why its module failed to load (thrown to the error boundary).
    const [part, setPart] = useState<{ component: AnyComponent } | { error: unknown } | null>(() =>
      loaded ? { component: loaded } : null,
    );
    useEffect(() => {
      if (part) return;
      let current = true;
      loadComponent().then(
        (component) => current && startTransition(() => setPart({ component })),
        (error: unknown) => current && setPart({ error }),
      );
      return () => {
        current = false;
      };
    }, [part]);
    if (part && 'error' in part) throw part.error;
    const Ready = part?.component;
    // The boundary stays for what the part itself may still wait for (e.g. logic loaded on first use).
    return <Suspense fallback={fallback}>{Ready ? <Ready {...props} /> : fallback}</Suspense>;
  }
  LazyPart.displayName = `Lazy(${name})`;
  return LazyPart as unknown as M[K];
}

/**
 * A value loaded on first use: the getter returns the value once loaded, before that the same
 * promise of it every time (what React's `use` needs); a failed load is tried again next time.
 */
export function lazyValue<T>(load: () => Promise<T>): () => T | Promise<T> {
  let loaded: { value: T } | null = null;
  let loading: Promise<T> | null = null;
  const get = (): T | Promise<T> => {
    if (loaded) return loaded.value;
    loading ??= load().then(
      (value) => {
        loaded = { value };
        return value;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  preloaders.push(async () => get());
  return get;
}

/** Loads every part now (tests use it so that pages render without waiting). */
export async function preloadParts(): Promise<void> {
  await Promise.all(preloaders.map((preload) => preload()));
}
