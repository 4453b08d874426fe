import { z } from 'zod';
import { lazySchema } from './lazy.ts';

/** The seven question types (spec §3). */
export const QuestionTypeSchema = lazySchema(() =>
  z.enum([
    'shortText',
    'longText',
    'singleSelection',
    'multipleResponse',
    'number',
    'fileUpload',
    'expansionPanelChoices',
  ]),
);
export type QuestionType = z.infer<typeof QuestionTypeSchema>;

/** Question types that need a list of choices. */
export const CHOICE_TYPES: readonly QuestionType[] = ['singleSelection', 'multipleResponse', 'expansionPanelChoices'];

/** Keys the clients treat specially (spec §3). */
export const RESERVED_KEYS = {
  title: 'artifactName',
  unitTiming: 'unitTiming',
  unitDay: 'unitDay',
  fileUpload: 'fileUpload',
  uploads: 'uploads',
  standards: 'standardFrameworkTags',
} as const;

export const QUESTION_KEY_MAX = 100;
export const QUESTION_TEXT_MAX = 1000;
export const CHOICE_MAX = 500;
export const CHOICES_MAX = 200;
export const STRUCTURE_MAX = 200;

/** One question of an artifact structure. */
export const QuestionSchema = lazySchema(() =>
  z
    .object({
      key: z.string().min(1).max(QUESTION_KEY_MAX),
      text: z.string().max(QUESTION_TEXT_MAX),
      type: QuestionTypeSchema,
      core: z.boolean().optional(),
      bonus: z.boolean().optional(),
      choices: z.array(z.string().max(CHOICE_MAX)).max(CHOICES_MAX).optional(),
      min: z.number().optional(),
      max: z.number().optional(),
      step: z.number().optional(),
    })
    .meta({ id: 'Question' }),
);
export type Question = z.infer<typeof QuestionSchema>;

/** The question list of a portfolio, shared portfolio or artifact. */
export const StructureSchema = lazySchema(() => z.array(QuestionSchema).max(STRUCTURE_MAX));
export type Structure = z.infer<typeof StructureSchema>;

/** A response value: text, a list of labels, or an integer. */
export const ResponseValueSchema = lazySchema(() => z.union([z.string(), z.array(z.string()), z.number()]));
export type ResponseValue = z.infer<typeof ResponseValueSchema>;

/** Answers keyed by question key. */
export const ResponsesSchema = lazySchema(() => z.record(z.string().max(QUESTION_KEY_MAX), ResponseValueSchema));
export type Responses = z.infer<typeof ResponsesSchema>;
