import { BONUS_TYPES, type SharedPortfolioBody } from '#schemas/sharedPortfolio';
import { CHOICE_TYPES, type Question, type QuestionType, type Structure } from '#schemas/structure';
import { badRequest } from '../errors.ts';

export const QUESTION_MESSAGES = {
  text: 'Question text is required.',
  type: 'Question type is required.',
  choices: 'You must enter at least one choice.',
  duplicate: 'Each question must have its own key.',
} as const;

/** The message for N invalid questions (spec §5). */
export const invalidQuestionsMessage = (n: number) =>
  `You have ${n} invalid ${n === 1 ? 'question' : 'questions'}. Please add the required info and re-submit.`;

/**
 * Builds a shared portfolio's questions from a form: template questions are taken as the
 * template defines them (core ones always kept, others only when ticked, i.e. sent); team
 * questions need text, a type and, for choice types, at least one choice; number questions are
 * saved with min 1, max 1, step 1 (spec §5).
 * @throws 400 naming the problems.
 */
export function buildSharedStructure(input: SharedPortfolioBody['structure'], template: Structure): Structure {
  const templateByKey = new Map(template.map((q) => [q.key, q]));
  const chosen = new Set<string>(template.filter((q) => q.core).map((q) => q.key));
  const bonus: Question[] = [];
  // The first problem of each invalid question, in order; the count is of questions (spec §5).
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const q of input) {
    if (seen.has(q.key)) {
      problems.push(QUESTION_MESSAGES.duplicate);
      continue;
    }
    seen.add(q.key);
    if (templateByKey.has(q.key)) {
      chosen.add(q.key);
      continue;
    }
    const text = q.text.trim();
    const type = q.type as QuestionType;
    const question: Question = { key: q.key, text, type, bonus: true };
    let problem: string | null = null;
    if (!text) problem = QUESTION_MESSAGES.text;
    else if (!(BONUS_TYPES as readonly string[]).includes(type)) problem = QUESTION_MESSAGES.type;
    if (CHOICE_TYPES.includes(type)) {
      const choices = [...new Set((q.choices ?? []).map((c) => c.trim()).filter(Boolean))];
      if (choices.length === 0) problem ??= QUESTION_MESSAGES.choices;
      question.choices = choices;
    } else if (type === 'number') {
      Object.assign(question, { min: 1, max: 1, step: 1 });
    }
    if (problem) problems.push(problem);
    bonus.push(question);
  }
  if (problems.length > 0)
    throw badRequest(`${invalidQuestionsMessage(problems.length)} ${problems[0]}`, 'invalid_questions');
  return [...template.filter((q) => chosen.has(q.key)), ...bonus];
}
