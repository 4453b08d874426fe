import { createActorContext } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { Portfolio } from '../../schemas/portfolio.ts';
import type { UiError } from '../../services/errors.ts';
import { portfolioEditMachine } from './portfolioEditMachine.ts';
import type { PortfolioFormErrors, PortfolioFormValues, PortfolioTextField } from './portfolioForm.ts';

/** The page's actor; the app provides navigation and toasts, and the portfolio id as input. */
export const PortfolioEditActorContext = createActorContext(portfolioEditMachine);

export type PortfolioEditStatus =
  | 'loading'
  | 'notFound'
  | 'loadFailed'
  | 'editing'
  | 'saving'
  | 'confirmingDelete'
  | 'deleting'
  | 'confirmingLeave'
  | 'leaving'
  | 'done';

/** Where the page stands. */
export function usePortfolioEditStatus(): PortfolioEditStatus {
  return PortfolioEditActorContext.useSelector((s) => {
    for (const state of [
      'notFound',
      'loadFailed',
      'editing',
      'saving',
      'confirmingDelete',
      'deleting',
      'confirmingLeave',
      'leaving',
    ] as const) {
      if (s.matches(state)) return state;
    }
    if (s.matches('saved') || s.matches('deleted')) return 'done';
    return 'loading';
  });
}

/** The portfolio as loaded. */
export const useEditedPortfolio = (): Portfolio | null =>
  PortfolioEditActorContext.useSelector((s) => s.context.portfolio);

/** The form's values. */
export const usePortfolioFormValues = (): PortfolioFormValues =>
  PortfolioEditActorContext.useSelector((s) => s.context.values);

/** Messages per field. */
export const usePortfolioFormErrors = (): PortfolioFormErrors =>
  PortfolioEditActorContext.useSelector((s) => s.context.errors);

/** How many times the user tried to save (to move the focus to the first message each time). */
export const useSaveAttempts = (): number => PortfolioEditActorContext.useSelector((s) => s.context.attempts);

/** Whether saving or deleting is under way. */
export const usePortfolioEditBusy = (): boolean => PortfolioEditActorContext.useSelector((s) => s.hasTag('busy'));

/** Whether Delete Portfolio is offered (only while the portfolio has no artifacts). */
export const useCanDeletePortfolio = (): boolean =>
  PortfolioEditActorContext.useSelector(
    (s) => s.context.portfolio !== null && s.context.portfolio.artifacts.length === 0,
  );

/** Why the portfolio could not be loaded. */
export const usePortfolioEditError = (): UiError | null =>
  PortfolioEditActorContext.useSelector((s) => s.context.error);

/** What the page may ask. */
export function usePortfolioEditEvents() {
  const actor = PortfolioEditActorContext.useActorRef();
  return useMemo(
    () => ({
      change: (field: PortfolioTextField, value: string) => actor.send({ type: 'field.change', field, value }),
      changeGrades: (grades: readonly string[]) => actor.send({ type: 'grades.change', grades }),
      submit: () => actor.send({ type: 'form.submit' }),
      cancel: () => actor.send({ type: 'form.cancel' }),
      requestDelete: () => actor.send({ type: 'delete.request' }),
      cancelDelete: () => actor.send({ type: 'delete.cancel' }),
      confirmDelete: () => actor.send({ type: 'delete.confirm' }),
      stay: () => actor.send({ type: 'leave.stay' }),
      leave: () => actor.send({ type: 'leave.confirm' }),
      retry: () => actor.send({ type: 'retry' }),
    }),
    [actor],
  );
}
