import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { IdParamSchema, IdSchema, TimestampSchema } from './common.ts';
import { MomentBodySchema, MomentSchema } from './moments.ts';

/**
 * Rubrics and the scores given with them (decision 055).
 *
 * A rubric belongs to one shared portfolio (made by its owner or a researcher) or to the whole
 * installation (made by a researcher). Its criteria and levels live in numbered versions: a
 * version that scores use never changes, so editing such a rubric makes the next version and
 * earlier scores keep theirs. A score is one person's judgement of a shared artifact (a moment of
 * one of its videos, or the whole artifact) on one criterion of its portfolio's rubric.
 */

/** Most criteria in one rubric (the NGSS practices are 8; district frameworks rarely pass 20). */
export const RUBRIC_CRITERIA_MAX = 24;
/** Fewest and most levels of one criterion. */
export const RUBRIC_LEVELS_MIN = 2;
export const RUBRIC_LEVELS_MAX = 6;
/** Lengths of a rubric's texts, in characters. */
export const RUBRIC_NAME_MAX = 120;
export const RUBRIC_DESCRIPTION_MAX = 1000;
export const CRITERION_CODE_MAX = 16;
export const CRITERION_LABEL_MAX = 160;
export const LEVEL_LABEL_MAX = 60;
export const LEVEL_DESCRIPTION_MAX = 500;
/** Lowest and highest score of a level. */
export const LEVEL_SCORE_MIN = 0;
export const LEVEL_SCORE_MAX = 100;
/** Rubrics of one shared portfolio, and installation-wide rubrics. */
export const RUBRICS_PER_PORTFOLIO_MAX = 20;
export const RUBRICS_INSTALLATION_MAX = 100;
/** Versions of one rubric (each made by editing it after it was used). */
export const RUBRIC_VERSIONS_MAX = 200;
/** Longest note of a score, and most scores one person gives one shared artifact. */
export const SCORE_NOTE_MAX = 1000;
export const SCORES_PER_PERSON_PER_ARTIFACT = 200;

const text = (max: number, what: string) =>
  z
    .string({ error: `${what} must be text.` })
    .trim()
    .min(1, `${what} is required.`)
    .max(max, `${what} can be at most ${max} characters.`);
const optionalText = (max: number, what: string) =>
  z
    .string({ error: `${what} must be text.` })
    .trim()
    .max(max, `${what} can be at most ${max} characters.`);

/** One level of a criterion, as an editor sends it. */
export const RubricLevelInputSchema = lazySchema(() =>
  z.strictObject({
    label: text(LEVEL_LABEL_MAX, 'A level’s label'),
    description: optionalText(LEVEL_DESCRIPTION_MAX, 'A level’s description').default(''),
    score: z
      .number({ error: 'A level’s score must be a whole number.' })
      .int('A level’s score must be a whole number.')
      .min(LEVEL_SCORE_MIN, `A level’s score must be from ${LEVEL_SCORE_MIN} to ${LEVEL_SCORE_MAX}.`)
      .max(LEVEL_SCORE_MAX, `A level’s score must be from ${LEVEL_SCORE_MIN} to ${LEVEL_SCORE_MAX}.`),
  }),
);
export type RubricLevelInput = z.input<typeof RubricLevelInputSchema>;

/** One criterion with its levels, lowest first, as an editor sends it. */
export const RubricCriterionInputSchema = lazySchema(() =>
  z
    .strictObject({
      code: optionalText(CRITERION_CODE_MAX, 'A criterion’s code').default(''),
      label: text(CRITERION_LABEL_MAX, 'A criterion’s label'),
      description: optionalText(RUBRIC_DESCRIPTION_MAX, 'A criterion’s description').default(''),
      levels: z
        .array(RubricLevelInputSchema, { error: 'levels must be a list.' })
        .min(RUBRIC_LEVELS_MIN, `A criterion needs at least ${RUBRIC_LEVELS_MIN} levels.`)
        .max(RUBRIC_LEVELS_MAX, `A criterion can have at most ${RUBRIC_LEVELS_MAX} levels.`),
    })
    .refine((c) => new Set(c.levels.map((l) => l.label.trim().toLowerCase())).size === c.levels.length, {
      message: 'Two levels of a criterion cannot have the same label.',
      path: ['levels'],
    }),
);
export type RubricCriterionInput = z.input<typeof RubricCriterionInputSchema>;

const criteria = lazySchema(() =>
  z
    .array(RubricCriterionInputSchema, { error: 'criteria must be a list.' })
    .min(1, 'A rubric needs at least one criterion.')
    .max(RUBRIC_CRITERIA_MAX, `A rubric can have at most ${RUBRIC_CRITERIA_MAX} criteria.`)
    .refine((list) => new Set(list.map((c) => c.label.trim().toLowerCase())).size === list.length, {
      message: 'Two criteria of a rubric cannot have the same label.',
    }),
);

/** `PUT /rubrics/{id}`: the whole rubric as the editor holds it. */
export const RubricUpdateBodySchema = lazySchema(() =>
  z.strictObject({
    name: text(RUBRIC_NAME_MAX, 'The rubric’s name'),
    description: optionalText(RUBRIC_DESCRIPTION_MAX, 'The rubric’s description').default(''),
    criteria,
  }),
);
export type RubricUpdateBody = z.input<typeof RubricUpdateBodySchema>;
/** A rubric's fields once validated (defaults filled, texts trimmed). */
export type RubricData = z.output<typeof RubricUpdateBodySchema>;

/** `POST /rubrics`: for one shared portfolio (`sharedPortfolio`), or installation-wide (`null`, researchers). */
export const RubricCreateBodySchema = lazySchema(() =>
  RubricUpdateBodySchema.extend({
    sharedPortfolio: IdSchema.nullable(),
  }),
);
export type RubricCreateBody = z.input<typeof RubricCreateBodySchema>;

/**
 * `GET /rubrics` query: only those a shared portfolio may use (`sharedPortfolio`), or only the
 * installation-wide ones (`scope=installation`, the researchers' rubrics page); not both.
 */
export const RubricListQuerySchema = lazySchema(() =>
  z
    .strictObject({
      sharedPortfolio: IdParamSchema.optional(),
      scope: z.enum(['installation'], { error: 'scope can only be "installation".' }).optional(),
    })
    .refine((q) => q.sharedPortfolio === undefined || q.scope === undefined, {
      message: 'Ask for one shared portfolio’s rubrics or for the installation’s, not both.',
    }),
);
export type RubricListQuery = z.infer<typeof RubricListQuerySchema>;

/** A level as answers carry it. */
export const RubricLevelSchema = lazySchema(() =>
  z.object({
    id: IdSchema,
    label: z.string(),
    description: z.string(),
    score: z.number().int(),
  }),
);
export type RubricLevel = z.infer<typeof RubricLevelSchema>;

/** A criterion as answers carry it. */
export const RubricCriterionSchema = lazySchema(() =>
  z.object({
    id: IdSchema,
    code: z.string(),
    label: z.string(),
    description: z.string(),
    levels: z.array(RubricLevelSchema),
  }),
);
export type RubricCriterion = z.infer<typeof RubricCriterionSchema>;

/** What the caller may do with a rubric (who may edit it may also delete it, when nothing uses it). */
export const RubricAbilitiesSchema = lazySchema(() => z.object({ edit: z.boolean() }));

/**
 * What uses a rubric, for those who may edit it (`null` for everyone else): the scores given with
 * any of its versions (they keep it: it cannot be deleted), and the shared portfolios that score
 * with it (they choose another first).
 */
export const RubricUsageSchema = lazySchema(() =>
  z.object({
    scores: z.number().int().min(0),
    portfolios: z.array(z.object({ id: IdSchema, name: z.string() })),
  }),
);
export type RubricUsage = z.infer<typeof RubricUsageSchema>;

/** A rubric with its current version's criteria. */
export const RubricSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      name: z.string(),
      description: z.string(),
      /** `null`: installation-wide. */
      sharedPortfolio: IdSchema.nullable(),
      /** The number of the current version (1, 2, …). */
      version: z.number().int().min(1),
      /** Whether scores use the current version (editing its criteria then makes the next one). */
      used: z.boolean(),
      criteria: z.array(RubricCriterionSchema),
      usage: RubricUsageSchema.nullable(),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
      abilities: RubricAbilitiesSchema,
    })
    .meta({ id: 'Rubric' }),
);
export type Rubric = z.infer<typeof RubricSchema>;
export const RubricListSchema = lazySchema(() => z.array(RubricSchema));

/** `PUT /shared-portfolios/{id}/rubric`: the rubric its members score with, or none. */
export const PortfolioRubricBodySchema = lazySchema(() => z.strictObject({ rubric: IdSchema.nullable() }));
export type PortfolioRubricBody = z.infer<typeof PortfolioRubricBodySchema>;

/** `GET` and `PUT /shared-portfolios/{id}/rubric`. */
export const PortfolioRubricSchema = lazySchema(() =>
  z.object({
    rubric: RubricSchema.nullable(),
    /** Whether the caller may score this portfolio's artifacts, and choose its rubric. */
    abilities: z.object({ score: z.boolean(), choose: z.boolean() }),
  }),
);
export type PortfolioRubric = z.infer<typeof PortfolioRubricSchema>;

/** `POST /scores`. */
export const ScoreBodySchema = lazySchema(() =>
  z.strictObject({
    sharedArtifact: IdSchema,
    rubric: IdSchema,
    criterion: IdSchema,
    level: IdSchema,
    /** A moment of one of its videos; absent or `null`: the whole artifact. */
    moment: MomentBodySchema.nullable().optional(),
    note: optionalText(SCORE_NOTE_MAX, 'A note').default(''),
  }),
);
export type ScoreBody = z.input<typeof ScoreBodySchema>;
/** A score once validated. */
export type ScoreData = z.output<typeof ScoreBodySchema>;

/** A score as answers carry it. */
export const ScoreSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      sharedArtifact: IdSchema,
      rubric: z.object({ id: IdSchema, name: z.string(), version: z.number().int() }),
      criterion: z.object({ id: IdSchema, code: z.string(), label: z.string() }),
      level: z.object({ id: IdSchema, label: z.string(), score: z.number().int() }),
      moment: MomentSchema.nullable(),
      note: z.string(),
      scorer: z.object({ id: IdSchema, username: z.string() }),
      created_at: TimestampSchema,
      abilities: z.object({ delete: z.boolean() }),
    })
    .meta({ id: 'Score' }),
);
export type Score = z.infer<typeof ScoreSchema>;
export const ScoreListSchema = lazySchema(() => z.array(ScoreSchema));

/** Whether two rubrics' criteria say the same (labels, descriptions, levels and scores in order). */
export function sameCriteria(
  a: readonly Pick<RubricCriterionInput, 'code' | 'label' | 'description' | 'levels'>[],
  b: readonly Pick<RubricCriterionInput, 'code' | 'label' | 'description' | 'levels'>[],
): boolean {
  const key = (list: typeof a) =>
    JSON.stringify(
      list.map((c) => [
        c.code ?? '',
        c.label,
        c.description ?? '',
        c.levels.map((l) => [l.label, l.description ?? '', l.score]),
      ]),
    );
  return key(a) === key(b);
}
