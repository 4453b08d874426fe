import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { GRADE_CODES, SUBJECTS } from './catalog.ts';
import { IdSchema, TimestampSchema } from './common.ts';
import { ArtifactSchema } from './artifact.ts';
import { StructureSchema } from './structure.ts';

export const PORTFOLIO_NAME_MAX = 200;
export const TOPIC_MAX = 500;

/** The owner of a portfolio as lists show it. */
export const PortfolioOwnerSchema = lazySchema(() =>
  z.object({ id: IdSchema, username: z.string(), email: z.string() }),
);

/** A light view of an artifact inside a portfolio list. */
export const ArtifactSummarySchema = lazySchema(() =>
  z.object({
    id: IdSchema,
    parkingLot: z.boolean(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);

const portfolioFields = () => ({
  id: IdSchema,
  name: z.string(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  grades: z.array(z.string()),
  subject: z.string().nullable(),
  topic: z.string().nullable(),
  template: z.literal('Basic'),
  owner: PortfolioOwnerSchema.nullable(),
  structure: StructureSchema,
});

/** `GET /portfolios` item: the portfolio with its artifacts in brief. */
export const PortfolioListItemSchema = lazySchema(() =>
  z.object({ ...portfolioFields(), artifacts: z.array(ArtifactSummarySchema) }).meta({ id: 'PortfolioListItem' }),
);
export type PortfolioListItem = z.infer<typeof PortfolioListItemSchema>;
export const PortfolioListResponseSchema = lazySchema(() => z.array(PortfolioListItemSchema));

/** `GET /portfolios/{id}`: the portfolio with its full artifacts. */
export const PortfolioSchema = lazySchema(() =>
  z.object({ ...portfolioFields(), artifacts: z.array(ArtifactSchema) }).meta({ id: 'Portfolio' }),
);
export type Portfolio = z.infer<typeof PortfolioSchema>;

/**
 * An artifact as the web's artifacts table needs it: what it shows and sorts by, and what Filter
 * By and keyword search look in (the answers, the comment texts). No structure (the portfolio's
 * is sent once), no files: the artifact is read whole (`GET /artifacts/{id}`) when it is opened.
 */
export const ArtifactBriefSchema = lazySchema(() =>
  ArtifactSchema.pick({
    id: true,
    parkingLot: true,
    created_at: true,
    updated_at: true,
    responses: true,
    ownerUsername: true,
    commentCount: true,
    commentTexts: true,
  }).meta({ id: 'ArtifactBrief' }),
);
export type ArtifactBrief = z.infer<typeof ArtifactBriefSchema>;

/**
 * `GET /portfolios/{id}/summary` (the web's My Portfolios and Teacher Portfolios): the portfolio
 * with its structure once and its artifacts in brief. `GET /portfolios/{id}` keeps its full shape.
 */
export const PortfolioSummarySchema = lazySchema(() =>
  z.object({ ...portfolioFields(), artifacts: z.array(ArtifactBriefSchema) }).meta({ id: 'PortfolioSummary' }),
);
export type PortfolioSummary = z.infer<typeof PortfolioSummarySchema>;

/** `GET /portfolios` query: researchers may ask for one owner's portfolios. */
export const PortfolioListQuerySchema = lazySchema(() =>
  z.strictObject({
    owner: z
      .string()
      .regex(/^[0-9]{1,10}$/, 'must be a user id')
      .transform(Number)
      .optional(),
  }),
);

const grades = lazySchema(() =>
  z
    .array(z.enum(GRADE_CODES, { error: (i) => `Unknown grade ${JSON.stringify(i.input)}.` }))
    .max(GRADE_CODES.length)
    .refine((list) => new Set(list).size === list.length, 'Each grade may be listed once.'),
);
const subject = lazySchema(() =>
  z.enum(['', ...SUBJECTS], { error: (i) => `Unknown subject ${JSON.stringify(i.input)}.` }).nullable(),
);
const topic = lazySchema(() =>
  z.string().trim().max(TOPIC_MAX, `The topic must be at most ${TOPIC_MAX} characters.`).nullable(),
);

/** `POST /portfolios`. */
export const PortfolioCreateBodySchema = lazySchema(() =>
  z.strictObject({
    name: z
      .string()
      .trim()
      .min(1, 'A name is required.')
      .max(PORTFOLIO_NAME_MAX, `The name must be at most ${PORTFOLIO_NAME_MAX} characters.`),
    grades: grades.optional(),
    subject: subject.optional(),
    topic: topic.optional(),
    /** Only 'Basic' exists. */
    template: z.literal('Basic').optional(),
    /** Sent by the original web client's inline row; ignored. */
    editMode: z.boolean().optional(),
  }),
);
export type PortfolioCreateBody = z.input<typeof PortfolioCreateBodySchema>;

/** `PUT /portfolios/{id}`: any of the editable fields. */
export const PortfolioUpdateBodySchema = lazySchema(() =>
  z.strictObject({
    name: PortfolioCreateBodySchema.shape.name.optional(),
    grades: grades.optional(),
    subject: subject.optional(),
    topic: topic.optional(),
    template: z.literal('Basic').optional(),
    editMode: z.boolean().optional(),
    id: IdSchema.optional(),
  }),
);
export type PortfolioUpdateBody = z.input<typeof PortfolioUpdateBodySchema>;

/** `DELETE /portfolios/{id}` answer. */
export const PortfolioDeleteResponseSchema = lazySchema(() =>
  z.object({
    ...portfolioFields(),
    artifacts: z.array(ArtifactSummarySchema),
  }),
);
