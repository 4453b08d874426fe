/**
 * The given ones of `values`: what a `provide…` function passes on to a machine or its children
 * (a service left out stays the one already provided).
 */
export const given = <T extends object>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as never;
