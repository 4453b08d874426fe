import { PortfolioUpdateBodySchema, type Portfolio, type PortfolioUpdateBody } from '../../schemas/portfolio.ts';

/** What the Edit portfolio form holds. */
export interface PortfolioFormValues {
  name: string;
  grades: readonly string[];
  /** '' when no subject is chosen. */
  subject: string;
  topic: string;
}

export type PortfolioTextField = 'name' | 'subject' | 'topic';

/** Messages per field. */
export type PortfolioFormErrors = Partial<Record<'name' | 'grades' | 'subject' | 'topic', string>>;

/** The form's values for a portfolio. */
export function valuesOf(portfolio: Portfolio): PortfolioFormValues {
  return {
    name: portfolio.name,
    grades: portfolio.grades,
    subject: portfolio.subject ?? '',
    topic: portfolio.topic ?? '',
  };
}

/**
 * Checks the form with the shared contract (name required and trimmed, spec §5): the body to
 * send, or the messages to show.
 */
export function checkPortfolioForm(
  values: PortfolioFormValues,
): { body: PortfolioUpdateBody; errors: null } | { body: null; errors: PortfolioFormErrors } {
  const parsed = PortfolioUpdateBodySchema.safeParse({
    name: values.name,
    grades: [...values.grades],
    subject: values.subject,
    topic: values.topic,
  });
  if (parsed.success) return { body: { ...parsed.data, name: values.name.trim() }, errors: null };
  const errors: PortfolioFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'name' || field === 'grades' || field === 'subject' || field === 'topic') && !errors[field])
      errors[field] = issue.message;
  }
  return { body: null, errors };
}

/** Whether the form holds changes not saved yet (the values differ from the portfolio as loaded). */
export function hasUnsavedPortfolioChanges(context: {
  portfolio: Portfolio | null;
  values: PortfolioFormValues;
}): boolean {
  if (!context.portfolio) return false;
  const saved = valuesOf(context.portfolio);
  const sameGrades =
    saved.grades.length === context.values.grades.length &&
    saved.grades.every((g) => context.values.grades.includes(g));
  return (
    saved.name !== context.values.name ||
    !sameGrades ||
    saved.subject !== context.values.subject ||
    saved.topic !== context.values.topic
  );
}
