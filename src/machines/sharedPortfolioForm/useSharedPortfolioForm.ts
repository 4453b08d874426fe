import { createActorContext } from '@xstate/react';
import { useCallback, useMemo, useState } from 'react';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import type { UiError } from '../../services/errors.ts';
import { useLocalDraft, type DraftOffer } from '../localDraft/useLocalDraft.ts';
import type { ParticipantsRef } from '../participants/useParticipants.ts';
import {
  formState,
  parseFormDraft,
  type BonusField,
  type FormErrors,
  type QuestionRow,
  type SummaryField,
  type SummaryValues,
} from './sharedForm.ts';
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

/** The summary values as typed. */
export const useFormValues = (): SummaryValues => SharedPortfolioFormActorContext.useSelector((s) => s.context.values);

/** The question rows. */
export const useQuestionRows = (): readonly QuestionRow[] =>
  SharedPortfolioFormActorContext.useSelector((s) => s.context.rows);

/** How many saves the form refused so far. */
export const useRefusals = (): number => SharedPortfolioFormActorContext.useSelector((s) => s.context.refusals);

/** The messages on screen. */
export const useFormErrors = (): FormErrors => SharedPortfolioFormActorContext.useSelector((s) => s.context.errors);

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

/** What the form may ask. */
export function useSharedPortfolioFormEvents() {
  const actor = SharedPortfolioFormActorContext.useActorRef();
  return useMemo(
    () => ({
      changeField: (field: SummaryField, value: string) => actor.send({ type: 'field.change', field, value }),
      changeGrades: (grades: readonly string[]) => actor.send({ type: 'grades.change', grades }),
      toggleQuestion: (key: string, included: boolean) => actor.send({ type: 'question.toggle', key, included }),
      addQuestion: () => actor.send({ type: 'question.add' }),
      removeQuestion: (key: string) => actor.send({ type: 'question.remove', key }),
      changeQuestion: (key: string, field: BonusField, value: string) =>
        actor.send({ type: 'question.change', key, field, value }),
      submit: () => actor.send({ type: 'form.submit' }),
      cancel: () => actor.send({ type: 'form.cancel' }),
      askDelete: () => actor.send({ type: 'portfolio.delete' }),
      confirmDelete: () => actor.send({ type: 'delete.confirm' }),
      cancelDelete: () => actor.send({ type: 'delete.cancel' }),
      stay: () => actor.send({ type: 'leave.stay' }),
      leave: () => actor.send({ type: 'leave.confirm' }),
      retry: () => actor.send({ type: 'retry' }),
    }),
    [actor],
  );
}

/**
 * The local draft of the form (call once it is loaded): kept as it is typed, offered back when
 * the same form (a new shared portfolio, or this one) opens again after a crash or a reload,
 * forgotten once saved, cancelled or left without saving.
 */
export function useSharedPortfolioFormDraft(): DraftOffer | null {
  const actor = SharedPortfolioFormActorContext.useActorRef();
  const text = SharedPortfolioFormActorContext.useSelector((s) => formState(s.context.values, s.context.rows));
  const [opened] = useState(() => {
    const { initial, sharedPortfolio, mode } = actor.getSnapshot().context;
    return {
      current: initial ?? '',
      base: sharedPortfolio?.updated_at ?? null,
      form: mode === 'create' ? 'shared-portfolio:new' : `shared-portfolio:${sharedPortfolio?.id ?? 0}`,
    };
  });
  const apply = useCallback(
    (restored: string) => {
      const draft = parseFormDraft(restored);
      if (draft) actor.send({ type: 'form.restore', draft });
    },
    [actor],
  );
  return useLocalDraft({ form: opened.form, text, current: opened.current, base: opened.base, apply });
}
