import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { compareMachine } from './compareMachine.ts';

export type CompareRef = ActorRefFrom<typeof compareMachine>;

const NONE: readonly number[] = [];

/** Whether compare mode is on. */
export function useCompareOn(ref: CompareRef | undefined): boolean {
  return useSelector(ref, (s) => s?.matches('on') ?? false);
}

/** The ids being compared, in the order they were picked. */
export function useCompareSelection(ref: CompareRef | undefined): readonly number[] {
  return useSelector(ref, (s) => s?.context.selection ?? NONE);
}

/** What the view may ask of compare mode. */
export function useCompareEvents(ref: CompareRef | undefined) {
  return useMemo(
    () => ({
      toggle: () => ref?.send({ type: 'compare.toggle' }),
      pick: (artifactId: number) => ref?.send({ type: 'compare.pick', artifactId }),
    }),
    [ref],
  );
}
