import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

type AnyComponent = ComponentType<Record<string, unknown>>;

/** Every part loaded on first use, so that they can be loaded ahead of use (`preloadParts`). */
const preloaders: (() => Promise<unknown>)[] = [];

/**
 * A component loaded on first use (its own bundle chunk), showing `fallback` while it arrives.
 * `name` picks the named export of the module. Once the module is there, a part rendered
 * afterwards shows at once, without the fallback.
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
  const Lazy = lazy(async () => ({ default: await loadComponent() }));
  function LazyPart(props: Record<string, unknown>) {
    // Decided once per mount, so that a part never remounts (losing its state) when its module arrives.
    // The boundary stays for what the part itself may still wait for (e.g. logic loaded on first use).
    const [Ready] = useState<AnyComponent | null>(() => loaded);
    return <Suspense fallback={fallback}>{Ready ? <Ready {...props} /> : <Lazy {...props} />}</Suspense>;
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
