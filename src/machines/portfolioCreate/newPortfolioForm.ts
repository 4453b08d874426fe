import { PortfolioCreateBodySchema, type PortfolioCreateBody } from '../../schemas/portfolio.ts';

/** What the Add Portfolio row holds. */
export interface NewPortfolioValues {
  name: string;
  grades: readonly string[];
  /** '' while the empty choice is selected. */
  subject: string;
  topic: string;
}

export type NewPortfolioTextField = 'name' | 'subject' | 'topic';

/** Messages per field. */
export type NewPortfolioErrors = Partial<Record<'name' | 'grades' | 'subject' | 'topic', string>>;

/** The row as it opens: nothing typed, no grades, the empty subject choice. */
export const EMPTY_NEW_PORTFOLIO: NewPortfolioValues = { name: '', grades: [], subject: '', topic: '' };

/**
 * Checks the row with the shared contract (a name is required and trimmed, spec §5): the body to
 * send, or the messages to show. An empty subject or topic is sent as "none" (`null`).
 */
export function checkNewPortfolio(
  values: NewPortfolioValues,
): { body: PortfolioCreateBody; errors: null } | { body: null; errors: NewPortfolioErrors } {
  const topic = values.topic.trim();
  const parsed = PortfolioCreateBodySchema.safeParse({
    name: values.name,
    grades: [...values.grades],
    subject: values.subject === '' ? null : values.subject,
    topic: topic === '' ? null : topic,
  });
  if (parsed.success) {
    const { name, grades = [], subject = null, topic: parsedTopic = null } = parsed.data;
    return { body: { name, grades, subject, topic: parsedTopic }, errors: null };
  }
  const errors: NewPortfolioErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'name' || field === 'grades' || field === 'subject' || field === 'topic') && !errors[field])
      errors[field] = issue.message;
  }
  return { body: null, errors };
}
