import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { SharedArtifactAbilitiesSchema, SharedPortfolioAbilitiesSchema } from './abilities.ts';
import { GRADE_CODES, REACTION_VALUES, SUBJECTS } from './catalog.ts';
import { IdParamSchema, IdSchema, TimestampSchema } from './common.ts';
import { MediaSchema } from './media.ts';
import {
  CHOICE_MAX,
  CHOICES_MAX,
  QUESTION_KEY_MAX,
  QUESTION_TEXT_MAX,
  ResponsesSchema,
  STRUCTURE_MAX,
  StructureSchema,
} from './structure.ts';

export const SHARED_NAME_MAX = 200;
export const PLC_TEXT_MAX = 500;
export const PLC_GOALS_MAX = 5000;

/** A person as membership lists show them. */
export const PersonSchema = lazySchema(() => z.object({ id: IdSchema, username: z.string(), email: z.string() }));
export type Person = z.infer<typeof PersonSchema>;

/** A shared artifact in brief (lists). */
export const SharedArtifactSummarySchema = lazySchema(() =>
  z.object({
    id: IdSchema,
    owner: z.object({ id: IdSchema }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);

/** Which reactions an artifact has, by emoji (true when at least one). */
export const ReactionFlagsSchema = lazySchema(() => z.record(z.string(), z.boolean()));

/** A shared artifact as it appears inside its shared portfolio. */
export const SharedArtifactSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      sharedPortfolio: z.object({ id: IdSchema }),
      parkingLot: z.literal(false),
      owner: PersonSchema,
      ownerUsername: z.string(),
      structure: StructureSchema,
      responses: ResponsesSchema,
      nextCaption: z.string(),
      portfolioTopic: z.string().nullable(),
      portfolioSubject: z.string().nullable(),
      portfolioGrades: z.array(z.string()),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
      images: z.array(MediaSchema),
      videos: z.array(MediaSchema),
      documents: z.array(MediaSchema),
      commentCount: z.number().int(),
      commentTexts: z.array(z.string()),
      reactions: ReactionFlagsSchema,
      /** What the caller may do with it (answers to the web; absent in the mobile apps' bundle). */
      abilities: SharedArtifactAbilitiesSchema.optional(),
    })
    .meta({ id: 'SharedArtifact' }),
);
export type SharedArtifact = z.infer<typeof SharedArtifactSchema>;

const sharedFields = () => ({
  id: IdSchema,
  name: z.string(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  grades: z.array(z.string()),
  subject: z.string().nullable(),
  topic: z.string().nullable(),
  plcName: z.string().nullable(),
  plcGoals: z.string().nullable(),
  owner: PersonSchema,
  members: z.array(PersonSchema),
  structure: StructureSchema,
  templateStructure: StructureSchema,
  commentCount: z.number().int(),
  /** What the caller may do with it (answers to the web; absent in the mobile apps' bundle). */
  abilities: SharedPortfolioAbilitiesSchema.optional(),
});

/** `GET /shared-portfolios` item. */
export const SharedPortfolioListItemSchema = lazySchema(() =>
  z
    .object({ ...sharedFields(), sharedArtifacts: z.array(SharedArtifactSummarySchema) })
    .meta({ id: 'SharedPortfolioListItem' }),
);
export type SharedPortfolioListItem = z.infer<typeof SharedPortfolioListItemSchema>;
export const SharedPortfolioListResponseSchema = lazySchema(() => z.array(SharedPortfolioListItemSchema));

/** `GET /shared-portfolios/{id}`: with its artifacts in full. */
export const SharedPortfolioSchema = lazySchema(() =>
  z.object({ ...sharedFields(), sharedArtifacts: z.array(SharedArtifactSchema) }).meta({ id: 'SharedPortfolio' }),
);
export type SharedPortfolio = z.infer<typeof SharedPortfolioSchema>;

/**
 * A shared artifact as the web's artifacts table needs it: what it shows and sorts by, what Filter
 * By and keyword search look in (the answers, the comment texts, the grades, the reaction flags),
 * and what the viewer may do with it. No structure (the portfolio's is sent once) and no files:
 * the artifact is read whole (`GET /shared-artifacts/{id}`) when it is opened.
 */
export const SharedArtifactBriefSchema = lazySchema(() =>
  SharedArtifactSchema.pick({
    id: true,
    sharedPortfolio: true,
    parkingLot: true,
    owner: true,
    ownerUsername: true,
    responses: true,
    portfolioGrades: true,
    created_at: true,
    updated_at: true,
    commentCount: true,
    commentTexts: true,
    reactions: true,
    abilities: true,
  }).meta({ id: 'SharedArtifactBrief' }),
);
export type SharedArtifactBrief = z.infer<typeof SharedArtifactBriefSchema>;

/**
 * `GET /shared-portfolios/{id}/summary` (the web's Shared Portfolios pages): the shared portfolio
 * with its artifacts in brief. `GET /shared-portfolios/{id}` keeps its full shape (mobile apps).
 */
export const SharedPortfolioSummarySchema = lazySchema(() =>
  z
    .object({ ...sharedFields(), sharedArtifacts: z.array(SharedArtifactBriefSchema) })
    .meta({ id: 'SharedPortfolioSummary' }),
);
export type SharedPortfolioSummary = z.infer<typeof SharedPortfolioSummarySchema>;

/** The question types a team may add (spec §5). */
export const BONUS_TYPES = ['singleSelection', 'multipleResponse', 'shortText', 'longText', 'number'] as const;

/** A question in a shared-portfolio form: a template question (by key) or a team (bonus) question. */
export const SharedQuestionInputSchema = lazySchema(() =>
  z.object({
    key: z.string().trim().min(1, 'Each question needs a key.').max(QUESTION_KEY_MAX),
    text: z.string().max(QUESTION_TEXT_MAX, `Question text must be at most ${QUESTION_TEXT_MAX} characters.`),
    type: z.string(),
    core: z.boolean().optional(),
    bonus: z.boolean().optional(),
    choices: z.array(z.string().max(CHOICE_MAX)).max(CHOICES_MAX).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().optional(),
  }),
);

const grades = lazySchema(() =>
  z
    .array(z.enum(GRADE_CODES, { error: (i) => `Unknown grade ${JSON.stringify(i.input)}.` }))
    .max(GRADE_CODES.length)
    .refine((list) => new Set(list).size === list.length, 'Each grade may be listed once.'),
);
const optionalText = (max: number, what: string) =>
  z.string().trim().max(max, `${what} must be at most ${max} characters.`).nullable().optional();

/** `POST /shared-portfolios` and `PUT /shared-portfolios/{id}`. */
export const SharedPortfolioBodySchema = lazySchema(() =>
  z.strictObject({
    name: z
      .string()
      .trim()
      .min(1, 'A name is required.')
      .max(SHARED_NAME_MAX, `The name must be at most ${SHARED_NAME_MAX} characters.`),
    grades: grades.optional(),
    subject: z
      .enum(['', ...SUBJECTS], { error: (i) => `Unknown subject ${JSON.stringify(i.input)}.` })
      .nullable()
      .optional(),
    topic: optionalText(PLC_TEXT_MAX, 'The topic'),
    plcName: optionalText(PLC_TEXT_MAX, 'The PLC name'),
    plcGoals: optionalText(PLC_GOALS_MAX, 'The PLC goals'),
    structure: z.array(SharedQuestionInputSchema).max(STRUCTURE_MAX),
    /** Sent by the original web client; ignored. */
    invalidKeys: z.array(z.string()).optional(),
    id: IdSchema.optional(),
  }),
);
export type SharedPortfolioBody = z.input<typeof SharedPortfolioBodySchema>;

/** `GET /shared-portfolios/{id}/members?search=`: members, pending invitees, and people to invite. */
export const MembersResponseSchema = lazySchema(() =>
  z.object({
    members: z.array(PersonSchema),
    pending: z.array(PersonSchema.extend({ invitationId: IdSchema })),
    nonMembers: z.array(PersonSchema),
  }),
);
export type MembersResponse = z.infer<typeof MembersResponseSchema>;
export const MembersQuerySchema = lazySchema(() => z.strictObject({ search: z.string().max(254).optional() }));

/** `POST /shared-portfolios/{id}/leave`. */
export const LeaveBodySchema = lazySchema(() => z.strictObject({ newOwnerId: IdSchema.optional() }).optional());

/** `POST /shared-portfolios/{id}/remove-user/{userId}` path. */
export const RemoveUserParamsSchema = lazySchema(() => z.strictObject({ id: IdParamSchema, userId: IdParamSchema }));

/** Nested shared-artifact path `/shared-portfolios/{id}/shared-artifacts/{artifactId}`. */
export const SharedNestedParamsSchema = lazySchema(() =>
  z.strictObject({ id: IdParamSchema, artifactId: IdParamSchema }),
);

/** The emoji a reaction may have. */
export const ReactionValueSchema = lazySchema(() => z.enum(REACTION_VALUES, { error: 'Invalid reaction value.' }));
