/**
 * A shared portfolio's rubric (decision 055): choosing the one its members score with, and
 * creating, editing or deleting rubrics (from the NGSS practices or empty). Without a shared
 * portfolio (`sharedPortfolioId` null) the same for the installation's rubrics (decision 058):
 * the researchers' rubrics page, where nothing is chosen.
 *
 * loading ─→ ready ─(load failed)→ loadFailed ─(retry)→ loading
 * ready:  idle ─(rubric.choose)→ choosing ─→ idle (the choice stored, or the refusal shown)
 *         idle ─(rubric.delete: a rubric I may edit)→ confirmingDelete ─(delete.cancel)→ idle
 *         confirmingDelete ─(delete.confirm)→ deleting ─→ idle (gone, or the refusal: what uses it)
 *         idle ─(editor.start: NGSS or empty | editor.edit: a rubric I may edit)→ editing
 *         editing ─(draft.*: add, remove, move, change)→ editing (checked again once a save was tried)
 *         editing ─(editor.save, the server's checks pass)→ saving ─→ idle (saved) └─(refused)→ editing
 *         editing ─(editor.save, they fail)→ editing (the messages shown)
 *         editing ─(editor.cancel)→ idle
 */
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { PortfolioRubric, Rubric, RubricUpdateBody } from '../../schemas/rubrics.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import {
  choosePortfolioRubric,
  createRubric,
  deleteRubric,
  listInstallationRubrics,
  listRubrics,
  updateRubric,
} from '../../services/rubricEditService.ts';
import { fetchPortfolioRubric } from '../../services/rubricService.ts';
import {
  addCriterion,
  addLevel,
  bodyOf,
  changeField,
  draftErrors,
  draftOf,
  moveCriterion,
  moveLevel,
  removeCriterion,
  removeLevel,
  startDraft,
  type DraftErrors,
  type DraftField,
  type DraftStart,
  type RubricDraft,
} from './rubricDraft.ts';

export interface RubricEditorInput {
  /** `null`: the installation's rubrics (nothing to choose). */
  sharedPortfolioId: number | null;
}

export interface RubricEditorContext extends RubricEditorInput {
  chosen: PortfolioRubric | null;
  rubrics: readonly Rubric[];
  /** The rubric being edited (`null`: a new one). */
  editing: Rubric | null;
  draft: RubricDraft | null;
  /** The rubric whose deletion waits for confirmation, or is under way. */
  removing: Rubric | null;
  /** Whether a save was tried (the messages then follow each change). */
  tried: boolean;
  errors: DraftErrors;
  /** The last failure (loading, choosing or saving), shown until the next action. */
  error: UiError | null;
  /** What the last save or choice did, for a status line. */
  notice: string | null;
}

export type RubricEditorEvent =
  | { type: 'retry' }
  | { type: 'rubric.choose'; rubric: number | null }
  | { type: 'editor.start'; from: DraftStart }
  | { type: 'editor.edit'; rubric: number }
  | { type: 'rubric.delete'; rubric: number }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'editor.save' }
  | { type: 'editor.cancel' }
  | { type: 'draft.change'; at: DraftField; value: string }
  | { type: 'draft.addCriterion' }
  | { type: 'draft.removeCriterion'; criterion: number }
  | { type: 'draft.moveCriterion'; criterion: number; by: -1 | 1 }
  | { type: 'draft.addLevel'; criterion: number }
  | { type: 'draft.removeLevel'; criterion: number; level: number }
  | { type: 'draft.moveLevel'; criterion: number; level: number; by: -1 | 1 };

/** What loading gives: the portfolio's rubric (`null` for the installation's) and the rubrics it may use. */
export interface RubricEditorLoaded {
  chosen: PortfolioRubric | null;
  rubrics: Rubric[];
}

/** What saving sends: a new rubric of the portfolio or installation (`id` null), or a rubric's new fields. */
export interface RubricSave {
  id: number | null;
  sharedPortfolioId: number | null;
  body: RubricUpdateBody;
}

type DraftEvent = Extract<RubricEditorEvent, { type: `draft.${string}` }>;

/** The draft after one editing event. */
function edited(draft: RubricDraft, e: DraftEvent): RubricDraft {
  switch (e.type) {
    case 'draft.change':
      return changeField(draft, e.at, e.value);
    case 'draft.addCriterion':
      return addCriterion(draft);
    case 'draft.removeCriterion':
      return removeCriterion(draft, e.criterion);
    case 'draft.moveCriterion':
      return moveCriterion(draft, e.criterion, e.by);
    case 'draft.addLevel':
      return addLevel(draft, e.criterion);
    case 'draft.removeLevel':
      return removeLevel(draft, e.criterion, e.level);
    case 'draft.moveLevel':
      return moveLevel(draft, e.criterion, e.level, e.by);
  }
}

const byName = (a: Rubric, b: Rubric) => a.name.localeCompare(b.name) || a.id - b.id;
const output = <T>(event: unknown) => (event as { output: T }).output;

export const rubricEditorMachine = setup({
  types: {
    input: {} as RubricEditorInput,
    context: {} as RubricEditorContext,
    events: {} as RubricEditorEvent,
  },
  actors: {
    loadRubrics: fromPromise<RubricEditorLoaded, RubricEditorInput>(async ({ input, signal }) => {
      if (input.sharedPortfolioId === null) return { chosen: null, rubrics: await listInstallationRubrics(signal) };
      const [chosen, rubrics] = await Promise.all([
        fetchPortfolioRubric(input.sharedPortfolioId, signal),
        listRubrics(input.sharedPortfolioId, signal),
      ]);
      return { chosen, rubrics };
    }),
    deleteRubric: fromPromise<Rubric, { id: number }>(({ input, signal }) => deleteRubric(input.id, signal)),
    chooseRubric: fromPromise<PortfolioRubric, { sharedPortfolioId: number; rubric: number | null }>(
      ({ input, signal }) => choosePortfolioRubric(input.sharedPortfolioId, input.rubric, signal),
    ),
    saveRubric: fromPromise<Rubric, RubricSave>(({ input, signal }) =>
      input.id === null
        ? createRubric({ ...input.body, sharedPortfolio: input.sharedPortfolioId }, signal)
        : updateRubric(input.id, input.body, signal),
    ),
  },
  guards: {
    draftPasses: ({ context }) => context.draft !== null && Object.keys(draftErrors(context.draft)).length === 0,
    editable: ({ context, event }) =>
      (event.type === 'editor.edit' || event.type === 'rubric.delete') &&
      context.rubrics.some((r) => r.id === event.rubric && r.abilities.edit),
    hasPortfolio: ({ context }) => context.sharedPortfolioId !== null,
  },
  actions: {
    storeLoaded: assign(({ event }) => {
      const { chosen, rubrics } = output<RubricEditorLoaded>(event);
      return { chosen, rubrics: [...rubrics].sort(byName), error: null };
    }),
    storeError: assign({
      error: ({ event }) => toUiError((event as unknown as { error: unknown }).error),
      notice: null,
    }),
    storeChosen: assign(({ context, event }) => {
      const chosen = output<PortfolioRubric>(event);
      const notice = chosen.rubric ? `Members now score with “${chosen.rubric.name}”.` : 'Members no longer score.';
      // What uses each rubric follows the choice: the new one as the server tells it, this
      // portfolio gone from the others.
      const rubrics = context.rubrics.map((r) =>
        r.id === chosen.rubric?.id
          ? chosen.rubric
          : r.usage
            ? {
                ...r,
                usage: { ...r.usage, portfolios: r.usage.portfolios.filter((p) => p.id !== context.sharedPortfolioId) },
              }
            : r,
      );
      return { chosen, rubrics, error: null, notice };
    }),
    clearNotice: assign({ error: null, notice: null }),
    startNew: assign(({ event }) => ({
      editing: null,
      draft: startDraft((event as Extract<RubricEditorEvent, { type: 'editor.start' }>).from),
      tried: false,
      errors: {},
      error: null,
      notice: null,
    })),
    startEdit: assign(({ context, event }) => {
      const id = (event as Extract<RubricEditorEvent, { type: 'editor.edit' }>).rubric;
      const rubric = context.rubrics.find((r) => r.id === id)!;
      return { editing: rubric, draft: draftOf(rubric), tried: false, errors: {}, error: null, notice: null };
    }),
    edit: assign(({ context, event }) => {
      const draft = edited(context.draft!, event as DraftEvent);
      return { draft, errors: context.tried ? draftErrors(draft) : {} };
    }),
    showErrors: assign(({ context }) => ({ tried: true, errors: draftErrors(context.draft!), error: null })),
    storeSaved: assign(({ context, event }) => {
      const saved = output<Rubric>(event);
      const rubrics = [...context.rubrics.filter((r) => r.id !== saved.id), saved].sort(byName);
      const chosen = context.chosen?.rubric?.id === saved.id ? { ...context.chosen, rubric: saved } : context.chosen;
      const made = context.editing === null ? 'created' : `saved as version ${saved.version}`;
      return { rubrics, chosen, editing: null, draft: null, error: null, notice: `“${saved.name}” ${made}.` };
    }),
    dropDraft: assign({ editing: null, draft: null, errors: {}, error: null }),
    askDelete: assign(({ context, event }) => ({
      removing: context.rubrics.find(
        (r) => r.id === (event as Extract<RubricEditorEvent, { type: 'rubric.delete' }>).rubric,
      )!,
      error: null,
      notice: null,
    })),
    keepRubric: assign({ removing: null }),
    storeDeleted: assign(({ context, event }) => {
      const gone = output<Rubric>(event);
      return {
        rubrics: context.rubrics.filter((r) => r.id !== gone.id),
        removing: null,
        error: null,
        notice: `“${gone.name}” deleted.`,
      };
    }),
  },
}).createMachine({
  id: 'rubricEditor',
  context: ({ input }) => ({
    ...input,
    chosen: null,
    rubrics: [],
    editing: null,
    draft: null,
    removing: null,
    tried: false,
    errors: {},
    error: null,
    notice: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadRubrics',
        src: 'loadRubrics',
        input: ({ context }) => ({ sharedPortfolioId: context.sharedPortfolioId }),
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
            'rubric.choose': { guard: 'hasPortfolio', target: 'choosing', actions: 'clearNotice' },
            'rubric.delete': { guard: 'editable', target: 'confirmingDelete', actions: 'askDelete' },
            'editor.start': { target: 'editing', actions: 'startNew' },
            'editor.edit': { guard: 'editable', target: 'editing', actions: 'startEdit' },
          },
        },
        choosing: {
          tags: ['busy'],
          invoke: {
            id: 'chooseRubric',
            src: 'chooseRubric',
            input: ({ context, event }) => ({
              sharedPortfolioId: context.sharedPortfolioId!,
              rubric: (event as Extract<RubricEditorEvent, { type: 'rubric.choose' }>).rubric,
            }),
            onDone: { target: 'idle', actions: 'storeChosen' },
            onError: { target: 'idle', actions: 'storeError' },
          },
        },
        confirmingDelete: {
          on: {
            'delete.confirm': 'deleting',
            'delete.cancel': { target: 'idle', actions: 'keepRubric' },
          },
        },
        deleting: {
          tags: ['busy'],
          invoke: {
            id: 'deleteRubric',
            src: 'deleteRubric',
            input: ({ context }) => ({ id: context.removing!.id }),
            onDone: { target: 'idle', actions: 'storeDeleted' },
            onError: { target: 'idle', actions: ['storeError', 'keepRubric'] },
          },
        },
        editing: {
          on: {
            'draft.change': { actions: 'edit' },
            'draft.addCriterion': { actions: 'edit' },
            'draft.removeCriterion': { actions: 'edit' },
            'draft.moveCriterion': { actions: 'edit' },
            'draft.addLevel': { actions: 'edit' },
            'draft.removeLevel': { actions: 'edit' },
            'draft.moveLevel': { actions: 'edit' },
            'editor.save': [{ guard: 'draftPasses', target: 'saving' }, { actions: 'showErrors' }],
            'editor.cancel': { target: 'idle', actions: 'dropDraft' },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'saveRubric',
            src: 'saveRubric',
            input: ({ context }): RubricSave => ({
              id: context.editing?.id ?? null,
              sharedPortfolioId: context.sharedPortfolioId,
              body: bodyOf(context.draft!),
            }),
            onDone: { target: 'idle', actions: 'storeSaved' },
            onError: { target: 'editing', actions: 'storeError' },
          },
        },
      },
    },
  },
});

export type RubricEditorRef = ActorRefFrom<typeof rubricEditorMachine>;
