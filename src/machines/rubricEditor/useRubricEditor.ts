import { useActorRef } from '@xstate/react';
import { createContext, useContext, useMemo } from 'react';
import type { InspectionEvent } from 'xstate';
import { useSelector } from '../shared/actorReact.ts';
import type { DraftField, DraftStart } from './rubricDraft.ts';
import {
  rubricEditorMachine,
  type RubricEditorContext,
  type RubricEditorInput,
  type RubricEditorRef,
} from './rubricEditorMachine.ts';

/** The rubric editor's logic (tests provide it with their own actors, and an inspector); the real one where none is given. */
export const RubricEditorLogicContext = createContext<{
  logic: typeof rubricEditorMachine;
  inspect?: (event: InspectionEvent) => void;
} | null>(null);

/** The rubric editor of one shared portfolio (or of the installation's rubrics), living as long as the calling component. */
export function useRubricEditorActor(input: RubricEditorInput): RubricEditorRef {
  const given = useContext(RubricEditorLogicContext);
  return useActorRef(given?.logic ?? rubricEditorMachine, {
    input,
    ...(given?.inspect ? { inspect: given.inspect } : {}),
  });
}

export type RubricEditorStatus =
  'loading' | 'loadFailed' | 'idle' | 'choosing' | 'editing' | 'saving' | 'confirmingDelete' | 'deleting';

/** Where the editor stands. */
export const useRubricEditorStatus = (ref: RubricEditorRef): RubricEditorStatus =>
  useSelector(ref, (s): RubricEditorStatus => {
    if (s.matches('loading')) return 'loading';
    if (s.matches('loadFailed')) return 'loadFailed';
    for (const state of ['choosing', 'editing', 'saving', 'confirmingDelete', 'deleting'] as const)
      if (s.matches({ ready: state })) return state;
    return 'idle';
  });

/** The whole context, read field by field (each view takes what it shows). */
export const useRubricEditorValue = <K extends keyof RubricEditorContext>(
  ref: RubricEditorRef,
  key: K,
): RubricEditorContext[K] => useSelector(ref, (s) => s.context[key]);

/** What a view may ask of the editor. */
export function useRubricEditorEvents(ref: RubricEditorRef) {
  return useMemo(
    () => ({
      retry: () => ref.send({ type: 'retry' }),
      choose: (rubric: number | null) => ref.send({ type: 'rubric.choose', rubric }),
      start: (from: DraftStart) => ref.send({ type: 'editor.start', from }),
      edit: (rubric: number) => ref.send({ type: 'editor.edit', rubric }),
      remove: (rubric: number) => ref.send({ type: 'rubric.delete', rubric }),
      confirmDelete: () => ref.send({ type: 'delete.confirm' }),
      cancelDelete: () => ref.send({ type: 'delete.cancel' }),
      save: () => ref.send({ type: 'editor.save' }),
      cancel: () => ref.send({ type: 'editor.cancel' }),
      change: (at: DraftField, value: string) => ref.send({ type: 'draft.change', at, value }),
      addCriterion: () => ref.send({ type: 'draft.addCriterion' }),
      removeCriterion: (criterion: number) => ref.send({ type: 'draft.removeCriterion', criterion }),
      moveCriterion: (criterion: number, by: -1 | 1) => ref.send({ type: 'draft.moveCriterion', criterion, by }),
      addLevel: (criterion: number) => ref.send({ type: 'draft.addLevel', criterion }),
      removeLevel: (criterion: number, level: number) => ref.send({ type: 'draft.removeLevel', criterion, level }),
      moveLevel: (criterion: number, level: number, by: -1 | 1) =>
        ref.send({ type: 'draft.moveLevel', criterion, level, by }),
    }),
    [ref],
  );
}
