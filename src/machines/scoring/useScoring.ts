import { useActorRef } from '@xstate/react';
import { createContext, useContext, useMemo } from 'react';
import type { InspectionEvent } from 'xstate';
import type { Rubric, Score } from '../../schemas/rubrics.ts';
import type { UiError } from '../../services/errors.ts';
import { useSelector } from '../shared/actorReact.ts';
import { scoringMachine, type ScoreAnchor, type ScoringInput, type ScoringRef } from './scoringMachine.ts';

/** The scoring logic (tests provide it with their own actors, and an inspector); the real one where none is given. */
export const ScoringLogicContext = createContext<{
  logic: typeof scoringMachine;
  inspect?: (event: InspectionEvent) => void;
} | null>(null);

/** The scoring of the shared artifact on screen, for the tools under its players. */
export const ScoringRefContext = createContext<ScoringRef | null>(null);

/** The scoring of one shared artifact, living as long as the calling component. */
export function useScoringActor(input: ScoringInput): ScoringRef {
  const given = useContext(ScoringLogicContext);
  return useActorRef(given?.logic ?? scoringMachine, { input, ...(given?.inspect ? { inspect: given.inspect } : {}) });
}

export type ScoringStatus = 'loading' | 'loadFailed' | 'idle' | 'picking' | 'saving' | 'deleting';

/** Where the scoring stands. */
export const useScoringStatus = (ref: ScoringRef): ScoringStatus =>
  useSelector(ref, (s): ScoringStatus => {
    if (s.matches('loading')) return 'loading';
    if (s.matches('loadFailed')) return 'loadFailed';
    for (const state of ['picking', 'saving', 'deleting'] as const) if (s.matches({ ready: state })) return state;
    return 'idle';
  });

/** The portfolio's rubric, whether the viewer may score with it, and the scores she sees. */
export function useScoringData(ref: ScoringRef): {
  rubric: Rubric | null;
  canScore: boolean;
  scores: readonly Score[];
} {
  const rubric = useSelector(ref, (s) => s.context.rubric);
  const canScore = useSelector(ref, (s) => s.context.canScore);
  const scores = useSelector(ref, (s) => s.context.scores);
  return useMemo(() => ({ rubric, canScore, scores }), [rubric, canScore, scores]);
}

/** The score being given: where, which criterion, the note, and why the last try failed. */
export function useScoreDraft(ref: ScoringRef): {
  anchor: ScoreAnchor | null;
  criterion: number | null;
  note: string;
  error: UiError | null;
  deleting: number | null;
} {
  const anchor = useSelector(ref, (s) => s.context.anchor);
  const criterion = useSelector(ref, (s) => s.context.criterion);
  const note = useSelector(ref, (s) => s.context.note);
  const error = useSelector(ref, (s) => s.context.error);
  const deleting = useSelector(ref, (s) => s.context.deleting);
  return useMemo(() => ({ anchor, criterion, note, error, deleting }), [anchor, criterion, note, error, deleting]);
}

/** What a view may ask of the scoring. */
export function useScoringEvents(ref: ScoringRef) {
  return useMemo(
    () => ({
      pickCriterion: (criterion: number, anchor: ScoreAnchor) =>
        ref.send({ type: 'score.pickCriterion', criterion, anchor }),
      changeNote: (text: string) => ref.send({ type: 'note.change', text }),
      pickLevel: (level: number) => ref.send({ type: 'score.pickLevel', level }),
      cancel: () => ref.send({ type: 'score.cancel' }),
      remove: (id: number) => ref.send({ type: 'score.delete', id }),
      retry: () => ref.send({ type: 'retry' }),
    }),
    [ref],
  );
}
