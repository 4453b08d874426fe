/**
 * Schemas built on first use in the browser (decision 065). Building a zod schema costs far more
 * than reading one: the schemas of every page that a chunk holds, built as the chunk is evaluated,
 * held the main thread for some 50–120 ms in one task on each signed-in page's first load. Wrapped,
 * a module's evaluation builds nothing; each schema is built when it is first used (parsed with,
 * or built upon), in the task of the answer it parses, and a page builds only those it uses.
 *
 * Elsewhere (the server, which compiles its serializers from the schemas as it starts, and
 * scripts) a schema is built at once and is the schema itself.
 */
const BUILT_ON_FIRST_USE = typeof document !== 'undefined';

/** The schema `build` makes: in the browser a stand-in that builds it on first use and is it thereafter. */
export function lazySchema<T extends object>(build: () => T): T {
  if (!BUILT_ON_FIRST_USE) return build();
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  // The stand-in forwards everything to the schema (a method read from it is bound to the schema).
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // The stand-in's own target has no such property: it may only be reported as configurable.
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
