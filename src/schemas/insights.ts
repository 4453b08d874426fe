import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { IdParamSchema, IdSchema } from './common.ts';
import { ExportDateSchema, RANGE_ORDER_MESSAGE } from './researchExport.ts';

/**
 * Insights (decision 057): the numbers behind the charts of researchers and PLC leads — activity
 * per week, discussion per shared portfolio, rubric levels per criterion and inter-rater agreement
 * (Cohen's kappa). Researchers see the installation; the owner of a shared portfolio sees hers.
 */

/** Most shared portfolios the discussion chart lists (the most discussed first). */
export const INSIGHTS_PORTFOLIOS_MAX = 25;

export const INSIGHTS_MESSAGES = {
  notAllowed: 'Charts are for researchers and for the leads of shared portfolios.',
} as const;

/**
 * `GET /insights` query: an optional shared portfolio and an optional range of UTC days
 * (inclusive, on when things were made); unknown parameters are refused.
 */
export const InsightsQuerySchema = lazySchema(() =>
  z
    .strictObject({
      sharedPortfolio: IdParamSchema.optional(),
      from: ExportDateSchema.optional(),
      to: ExportDateSchema.optional(),
    })
    .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
      message: RANGE_ORDER_MESSAGE,
      path: ['to'],
    }),
);
export type InsightsQuery = z.infer<typeof InsightsQuerySchema>;

/** One week of activity: its Monday (`YYYY-MM-DD`, UTC) and what was made in it. */
export const ActivityWeekSchema = lazySchema(() =>
  z.object({
    week: z.string(),
    artifacts: z.number().int().nonnegative(),
    comments: z.number().int().nonnegative(),
    reactions: z.number().int().nonnegative(),
    scores: z.number().int().nonnegative(),
  }),
);
export type ActivityWeek = z.infer<typeof ActivityWeekSchema>;

/** The discussion in one shared portfolio. */
export const PortfolioDiscussionSchema = lazySchema(() =>
  z.object({
    id: IdSchema,
    name: z.string(),
    artifacts: z.number().int().nonnegative(),
    comments: z.number().int().nonnegative(),
    reactions: z.number().int().nonnegative(),
  }),
);
export type PortfolioDiscussion = z.infer<typeof PortfolioDiscussionSchema>;

/** A criterion of a rubric version, as the charts name it. */
export const InsightCriterionSchema = lazySchema(() =>
  z.object({
    id: IdSchema,
    code: z.string(),
    label: z.string(),
    rubric: z.string(),
    version: z.number().int().positive(),
  }),
);
export type InsightCriterion = z.infer<typeof InsightCriterionSchema>;

/** How often each level of one criterion was given, lowest level first. */
export const LevelDistributionSchema = lazySchema(() =>
  z.object({
    criterion: InsightCriterionSchema,
    levels: z.array(
      z.object({ id: IdSchema, label: z.string(), score: z.number().int(), count: z.number().int().nonnegative() }),
    ),
  }),
);
export type LevelDistribution = z.infer<typeof LevelDistributionSchema>;

/**
 * Agreement on one criterion: `pairs` moments (or whole artifacts) that two people scored, the
 * share of them on the same level (`observed`), the share expected by chance from each rater's
 * levels (`expected`), and Cohen's kappa — `null` when chance alone predicts full agreement.
 */
export const AgreementSchema = lazySchema(() =>
  z.object({
    criterion: InsightCriterionSchema,
    pairs: z.number().int().positive(),
    observed: z.number().min(0).max(1),
    expected: z.number().min(0).max(1),
    kappa: z.number().min(-1).max(1).nullable(),
  }),
);
export type Agreement = z.infer<typeof AgreementSchema>;

/** `GET /insights`: what the caller may chart, for the scope she asked for. */
export const InsightsSchema = lazySchema(() =>
  z
    .object({
      /** `installation` for researchers without a portfolio; else the portfolios charted. */
      scope: z.enum(['installation', 'portfolios']),
      /** The shared portfolios the caller may pick from (a lead's own; all for researchers), by name. */
      portfolios: z.array(z.object({ id: IdSchema, name: z.string() })),
      activity: z.array(ActivityWeekSchema),
      discussion: z.array(PortfolioDiscussionSchema),
      /** Portfolios in scope beyond those `discussion` lists. */
      discussionMore: z.number().int().nonnegative(),
      levels: z.array(LevelDistributionSchema),
      agreement: z.array(AgreementSchema),
    })
    .meta({ id: 'Insights' }),
);
export type Insights = z.infer<typeof InsightsSchema>;
