import { createActorContext, useSelector } from '../shared/actorReact.ts';
import { useCallback, useMemo, useState } from 'react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import type { UiError } from '../../services/errors.ts';
import { useLocalDraft, type DraftOffer } from '../localDraft/useLocalDraft.ts';
import type { ParticipantsRef } from '../participants/useParticipants.ts';
import {
  EMPTY_VALUES,
  formState,
  parseFormDraft,
  type BonusField,
  type FormErrors,
  type QuestionRow,
  type SummaryField,
  type SummaryValues,
} from './sharedForm.ts';
import { NO_ERRORS, type SharedPortfolioFieldsMachine } from './sharedPortfolioFieldsMachine.ts';
import { sharedPortfolioFormMachine, type FormMode } from './sharedPortfolioFormMachine.ts';

/** The form page's actor; the app provides its logic (`provideSharedPortfolioForm`) and input. */
export const SharedPortfolioFormActorContext = createActorContext(sharedPortfolioFormMachine);

export type SharedPortfolioFormStatus =
  'loading' | 'loadFailed' | 'unavailable' | 'editing' | 'confirmingDelete' | 'confirmingLeave' | 'done';

/** Where the page stands. */
export function useSharedPortfolioFormStatus(): SharedPortfolioFormStatus {
  return SharedPortfolioFormActorContext.useSelector((s) => {
    if (s.matches('loadFailed')) return 'loadFailed';
    if (s.matches('unavailable')) return 'unavailable';
    if (s.matches('confirmingDelete') || s.matches('deleting')) return 'confirmingDelete';
    if (s.matches('confirmingLeave')) return 'confirmingLeave';
    if (s.matches('saved') || s.matches('deleted') || s.matches('cancelled') || s.matches('leaving')) return 'done';
    if (s.matches('starting') || s.matches('loading')) return 'loading';
    return 'editing';
  });
}

/** Whether Delete Shared Portfolio can succeed: only while the portfolio has no artifacts. */
export const useCanDeleteSharedPortfolio = (): boolean =>
  SharedPortfolioFormActorContext.useSelector(
    (s) => s.context.sharedPortfolio !== null && s.context.sharedPortfolio.sharedArtifacts.length === 0,
  );

/** Create or edit. */
export const useFormMode = (): FormMode => SharedPortfolioFormActorContext.useSelector((s) => s.context.mode);

/** Whether a save or delete is running. */
export const useFormBusy = (): boolean => SharedPortfolioFormActorContext.useSelector((s) => s.hasTag('busy'));

/** Whether the delete is running (the confirmation waits). */
export const useDeleting = (): boolean => SharedPortfolioFormActorContext.useSelector((s) => s.matches('deleting'));

/** Why the page cannot be shown. */
export const useFormProblem = (): string | null =>
  SharedPortfolioFormActorContext.useSelector((s) => s.context.problem);

/** Why loading failed. */
export const useFormLoadError = (): UiError | null =>
  SharedPortfolioFormActorContext.useSelector((s) => s.context.error);

type FieldsRef = ActorRefFrom<SharedPortfolioFieldsMachine>;
type FieldsSnapshot = SnapshotFrom<SharedPortfolioFieldsMachine>;

/** The form's fields actor (once the template or the portfolio is loaded). */
function useFieldsRef(): FieldsRef | undefined {
  // Children are typed as a union of every actor the machine may start; this id is the fields'.
  return SharedPortfolioFormActorContext.useSelector((s) => s.children.fields as FieldsRef | undefined);
}

/** A value of the fields' snapshot; `empty` before they exist. */
function useFields<T>(select: (s: FieldsSnapshot) => T, empty: T): T {
  const ref = useFieldsRef();
  const selected = useSelector(ref, (s: FieldsSnapshot | undefined) => (s ? select(s) : empty));
  return selected;
}

const NO_ROWS: readonly QuestionRow[] = [];

/** The summary values as typed. */
export const useFormValues = (): SummaryValues => useFields((s) => s.context.values, EMPTY_VALUES);

/** The question rows. */
export const useQuestionRows = (): readonly QuestionRow[] => useFields((s) => s.context.rows, NO_ROWS);

/** How many saves the form refused so far. */
export const useRefusals = (): number => SharedPortfolioFormActorContext.useSelector((s) => s.context.refusals);

/** The messages on screen. */
export const useFormErrors = (): FormErrors => useFields((s) => s.context.errors, NO_ERRORS);

/** Why the server refused the last save or delete, if it did. */
export const useSaveError = (): string | null =>
  SharedPortfolioFormActorContext.useSelector((s) => s.context.saveError);

/** The portfolio being edited (`null` on create). */
export const useEditedPortfolio = (): SharedPortfolio | null =>
  SharedPortfolioFormActorContext.useSelector((s) => s.context.sharedPortfolio);

/** The Edit Participants actor (edit only, once the portfolio is loaded). */
export function useParticipantsRef(): ParticipantsRef | undefined {
  // Children are typed as a union of every actor the machine may start; this id is the dialog's.
  return SharedPortfolioFormActorContext.useSelector((s) => s.children.participants as ParticipantsRef | undefined);
}

/** What the form may ask (of its fields: typing and Save; of the form: the rest). */
export function useSharedPortfolioFormEvents() {
  const actor = SharedPortfolioFormActorContext.useActorRef();
  const fields = useFieldsRef();
  return useMemo(
    () => ({
      changeField: (field: SummaryField, value: string) => fields?.send({ type: 'field.change', field, value }),
      changeGrades: (grades: readonly string[]) => fields?.send({ type: 'grades.change', grades }),
      toggleQuestion: (key: string, included: boolean) => fields?.send({ type: 'question.toggle', key, included }),
      addQuestion: () => fields?.send({ type: 'question.add' }),
      removeQuestion: (key: string) => fields?.send({ type: 'question.remove', key }),
      changeQuestion: (key: string, field: BonusField, value: string) =>
        fields?.send({ type: 'question.change', key, field, value }),
      submit: () => fields?.send({ type: 'form.submit' }),
      cancel: () => actor.send({ type: 'form.cancel' }),
      askDelete: () => actor.send({ type: 'portfolio.delete' }),
      confirmDelete: () => actor.send({ type: 'delete.confirm' }),
      cancelDelete: () => actor.send({ type: 'delete.cancel' }),
      stay: () => actor.send({ type: 'leave.stay' }),
      leave: () => actor.send({ type: 'leave.confirm' }),
      retry: () => actor.send({ type: 'retry' }),
    }),
    [actor, fields],
  );
}

/**
 * The local draft of the form (call once it is loaded): kept as it is typed, offered back when
 * the same form (a new shared portfolio, or this one) opens again after a crash or a reload,
 * forgotten once saved, cancelled or left without saving.
 */
export function useSharedPortfolioFormDraft(): DraftOffer | null {
  const actor = SharedPortfolioFormActorContext.useActorRef();
  const fields = useFieldsRef();
  const text = useFields((s) => formState(s.context.values, s.context.rows), '');
  const [opened] = useState(() => {
    const { sharedPortfolio, mode } = actor.getSnapshot().context;
    return {
      current: fields?.getSnapshot().context.initial ?? '',
      base: sharedPortfolio?.updated_at ?? null,
      form: mode === 'create' ? 'shared-portfolio:new' : `shared-portfolio:${sharedPortfolio?.id ?? 0}`,
    };
  });
  const apply = useCallback(
    (restored: string) => {
      const draft = parseFormDraft(restored);
      if (draft) fields?.send({ type: 'form.restore', draft });
    },
    [fields],
  );
  return useLocalDraft({ form: opened.form, text, current: opened.current, base: opened.base, apply });
}
