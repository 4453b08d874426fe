import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { NewPortfolioErrors, NewPortfolioTextField, NewPortfolioValues } from './newPortfolioForm.ts';
import type { portfolioCreateMachine } from './portfolioCreateMachine.ts';

export type PortfolioCreateRef = ActorRefFrom<typeof portfolioCreateMachine>;

/** The add row's state: whether it is open or saving, what it holds and its messages. */
export function usePortfolioCreate(ref: PortfolioCreateRef): {
  open: boolean;
  saving: boolean;
  values: NewPortfolioValues;
  errors: NewPortfolioErrors;
  /** Counts refused saves: each new one moves the focus to the name. */
  refusals: number;
} {
  const open = useSelector(ref, (s) => !s.matches('closed'));
  const saving = useSelector(ref, (s) => s.hasTag('busy'));
  const values = useSelector(ref, (s) => s.context.values);
  const errors = useSelector(ref, (s) => s.context.errors);
  const refusals = useSelector(ref, (s) => s.context.refusals);
  return { open, saving, values, errors, refusals };
}

/** What the add row's view may ask. */
export function usePortfolioCreateEvents(ref: PortfolioCreateRef) {
  return useMemo(
    () => ({
      open: () => ref.send({ type: 'create.open' }),
      cancel: () => ref.send({ type: 'form.cancel' }),
      change: (field: NewPortfolioTextField, value: string) => ref.send({ type: 'field.change', field, value }),
      changeGrades: (grades: readonly string[]) => ref.send({ type: 'grades.change', grades }),
      submit: () => ref.send({ type: 'form.submit' }),
    }),
    [ref],
  );
}
