/** Fixed option lists of the product (spec §3, §9; reference §10.4). Pure data. */

/** Grade codes as stored, with the labels the portal shows. */
export const GRADES = [
  { value: 'Pre-K', label: 'Pre-K' },
  { value: 'K', label: 'Kindergarten' },
  { value: '1st', label: '1st Grade' },
  { value: '2nd', label: '2nd Grade' },
  { value: '3rd', label: '3rd Grade' },
  { value: '4th', label: '4th Grade' },
  { value: '5th', label: '5th Grade' },
  { value: '6th', label: '6th Grade' },
  { value: '7th', label: '7th Grade' },
  { value: '8th', label: '8th Grade' },
  { value: '9th', label: '9th Grade' },
  { value: '10th', label: '10th Grade' },
  { value: '11th', label: '11th Grade' },
  { value: '12th', label: '12th Grade' },
] as const;
export type GradeCode = (typeof GRADES)[number]['value'];
export const GRADE_CODES = GRADES.map((g) => g.value) as unknown as readonly [GradeCode, ...GradeCode[]];

/** Subjects a portfolio can have. */
export const SUBJECTS = ['Arts', 'History', 'Language Arts', 'Mathematics', 'PE', 'Science'] as const;
export type Subject = (typeof SUBJECTS)[number];

/** The four reactions, by emoji, with the meaning the portal shows as their title. */
export const REACTIONS = [
  { value: '🔖', codePoint: 128278, meaning: "Let's talk about this", csvColumn: 'Tag Reactions' },
  { value: '⭐', codePoint: 11088, meaning: 'Exemplar', csvColumn: 'Star Reactions' },
  { value: '🌉', codePoint: 127753, meaning: 'Bridges grade levels', csvColumn: 'Bridge Reactions' },
  { value: '❓', codePoint: 10067, meaning: 'I have a question', csvColumn: 'Question Reactions' },
] as const;
export type ReactionValue = (typeof REACTIONS)[number]['value'];
export const REACTION_VALUES = REACTIONS.map((r) => r.value) as unknown as readonly [ReactionValue, ...ReactionValue[]];

/** Longest comment. */
export const COMMENT_MAX = 2500;

/** At most this many artifacts are compared side by side. */
export const COMPARE_MAX = 2;

/** The recent-artifact filter covers this many days. */
export const RECENT_DAYS = 7;

/** The only portfolio template, and the id of the portfolio that holds its structure. */
export const TEMPLATE_NAME = 'Basic';
export const TEMPLATE_PORTFOLIO_ID = 1;

/** Title shown for an artifact without a name. */
export const UNNAMED_ARTIFACT = '(Unnamed)';
