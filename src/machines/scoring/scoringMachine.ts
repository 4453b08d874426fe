/**
 * Scoring one shared artifact against its portfolio's rubric (decision 055): the rubric, the
 * scores the viewer may see, and the three-click composer.
 *
 * loading ─→ ready ─(load failed)→ loadFailed ─(retry)→ loading
 * ready:  idle ─(score.pickCriterion: the moment is the player's time, or the whole artifact)→ picking
 *         picking ─(note.change)→ picking; ─(score.pickCriterion)→ picking (another criterion)
 *         picking ─(score.pickLevel)→ saving ─→ idle (the score added)   └─(failed)→ picking (its error shown)
 *         picking ─(score.cancel)→ idle
 *         idle ─(score.delete)→ deleting ─→ idle (the score gone, or the error shown)
 *
 * Picking a criterion is the first click (it captures the moment), a level the second (it saves);
 * the note is optional, so a score takes two clicks, three with the note field.
 */
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { PortfolioRubric, Rubric, Score, ScoreBody } from '../../schemas/rubrics.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { createScore, deleteScore, fetchPortfolioRubric, listScores } from '../../services/rubricService.ts';

export interface ScoringInput {
  sharedPortfolioId: number;
  artifactId: number;
}

/** Where a score is given: a moment of one video (seconds), or the whole artifact (`media` null). */
export interface ScoreAnchor {
  media: number | null;
  start: number;
}

export interface ScoringContext extends ScoringInput {
  rubric: Rubric | null;
  canScore: boolean;
  scores: readonly Score[];
  anchor: ScoreAnchor | null;
  criterion: number | null;
  note: string;
  /** The last failure (loading, saving or deleting), shown until the next action. */
  error: UiError | null;
  deleting: number | null;
}

export type ScoringEvent =
  | { type: 'score.pickCriterion'; criterion: number; anchor: ScoreAnchor }
  | { type: 'note.change'; text: string }
  | { type: 'score.pickLevel'; level: number }
  | { type: 'score.cancel' }
  | { type: 'score.delete'; id: number }
  | { type: 'retry' };

/** What loading gives: the portfolio's rubric and the scores the viewer sees. */
export interface ScoringLoaded {
  chosen: PortfolioRubric;
  scores: Score[];
}

/** The body of the score being given, from the context and the level picked. */
export function scoreBody(c: ScoringContext, level: number): ScoreBody {
  return {
    sharedArtifact: c.artifactId,
    rubric: c.rubric!.id,
    criterion: c.criterion!,
    level,
    moment: c.anchor && c.anchor.media !== null ? { media: c.anchor.media, start: c.anchor.start } : null,
    note: c.note.trim(),
  };
}

const byPlace = (a: Score, b: Score) =>
  (a.moment?.media ?? 0) - (b.moment?.media ?? 0) || (a.moment?.start ?? -1) - (b.moment?.start ?? -1) || a.id - b.id;

export const scoringMachine = setup({
  types: {
    input: {} as ScoringInput,
    context: {} as ScoringContext,
    events: {} as ScoringEvent,
  },
  actors: {
    loadScoring: fromPromise<ScoringLoaded, ScoringInput>(async ({ input, signal }) => {
      const [chosen, scores] = await Promise.all([
        fetchPortfolioRubric(input.sharedPortfolioId, signal),
        listScores(input.artifactId, signal),
      ]);
      return { chosen, scores };
    }),
    saveScore: fromPromise<Score, ScoreBody>(({ input, signal }) => createScore(input, signal)),
    removeScore: fromPromise<Score, { id: number }>(({ input, signal }) => deleteScore(input.id, signal)),
  },
  guards: {
    canScore: ({ context }) => context.canScore && context.rubric !== null,
    hasCriterion: ({ context }) => context.criterion !== null,
    isOwnDeletable: ({ context, event }) =>
      event.type === 'score.delete' && context.scores.some((s) => s.id === event.id && s.abilities.delete),
  },
  actions: {
    storeLoaded: assign(({ event }) => {
      const { chosen, scores } = (event as unknown as { output: ScoringLoaded }).output;
      return {
        rubric: chosen.rubric,
        canScore: chosen.abilities.score,
        scores: [...scores].sort(byPlace),
        error: null,
      };
    }),
    storeError: assign({ error: ({ event }) => toUiError((event as unknown as { error: unknown }).error) }),
    startPicking: assign(({ event }) => {
      const e = event as Extract<ScoringEvent, { type: 'score.pickCriterion' }>;
      return { criterion: e.criterion, anchor: e.anchor, error: null };
    }),
    switchCriterion: assign({
      criterion: ({ event }) => (event as Extract<ScoringEvent, { type: 'score.pickCriterion' }>).criterion,
      error: null,
    }),
    storeNote: assign({ note: ({ event }) => (event as Extract<ScoringEvent, { type: 'note.change' }>).text }),
    resetDraft: assign({ anchor: null, criterion: null, note: '', error: null }),
    addScore: assign({
      scores: ({ context, event }) => [...context.scores, (event as unknown as { output: Score }).output].sort(byPlace),
    }),
    markDeleting: assign({
      deleting: ({ event }) => (event as Extract<ScoringEvent, { type: 'score.delete' }>).id,
      error: null,
    }),
    dropScore: assign({
      scores: ({ context }) => context.scores.filter((s) => s.id !== context.deleting),
      deleting: null,
    }),
    clearDeleting: assign({ deleting: null }),
  },
}).createMachine({
  id: 'scoring',
  context: ({ input }) => ({
    ...input,
    rubric: null,
    canScore: false,
    scores: [],
    anchor: null,
    criterion: null,
    note: '',
    error: null,
    deleting: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadScoring',
        src: 'loadScoring',
        input: ({ context }) => ({ sharedPortfolioId: context.sharedPortfolioId, artifactId: context.artifactId }),
        onDone: { target: 'ready', actions: 'storeLoaded' },
        onError: { target: 'loadFailed', actions: 'storeError' },
      },
    },
    loadFailed: { on: { retry: 'loading' } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'score.pickCriterion': { guard: 'canScore', target: 'picking', actions: 'startPicking' },
            'score.delete': { guard: 'isOwnDeletable', target: 'deleting', actions: 'markDeleting' },
          },
        },
        picking: {
          tags: ['form'],
          on: {
            'score.pickCriterion': { actions: 'switchCriterion' },
            'note.change': { actions: 'storeNote' },
            'score.pickLevel': { guard: 'hasCriterion', target: 'saving' },
            'score.cancel': { target: 'idle', actions: 'resetDraft' },
          },
        },
        saving: {
          tags: ['form', 'busy'],
          invoke: {
            id: 'saveScore',
            src: 'saveScore',
            input: ({ context, event }) =>
              scoreBody(context, (event as Extract<ScoringEvent, { type: 'score.pickLevel' }>).level),
            onDone: { target: 'idle', actions: ['addScore', 'resetDraft'] },
            onError: { target: 'picking', actions: 'storeError' },
          },
        },
        deleting: {
          tags: ['busy'],
          invoke: {
            id: 'removeScore',
            src: 'removeScore',
            input: ({ context }) => ({ id: context.deleting! }),
            onDone: { target: 'idle', actions: 'dropScore' },
            onError: { target: 'idle', actions: ['storeError', 'clearDeleting'] },
          },
        },
      },
    },
  },
});

export type ScoringRef = ActorRefFrom<typeof scoringMachine>;
