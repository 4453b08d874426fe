import type { AnyStateMachine } from 'xstate';

/**
 * The given ones of `values`: what a `provide…` function passes on to a machine or its children
 * (a service left out stays the one already provided).
 */
export const given = <T extends object>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as never;

/**
 * `logic` with other service calls: the given ones of `own` for itself, and the given ones of
 * `ofChild` for the child machine it invokes as `child`. What `logic` already gave its child is kept.
 */
export function provideDown<M extends AnyStateMachine>(logic: M, child: string, own: object, ofChild: object): M {
  // The child as `logic` provides it (a machine's actors are typed as a union of them all).
  const children = logic.implementations.actors as unknown as Record<string, AnyStateMachine>;
  return logic.provide({
    actors: { ...given(own), [child]: children[child]!.provide({ actors: given(ofChild) }) },
  } as never) as M;
}
