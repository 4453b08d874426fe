import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { IdParamSchema, IdSchema, TimestampSchema } from './common.ts';

/** How long a finished archive can be downloaded before housekeeping removes it. */
export const ARCHIVE_VALID_DAYS = 7;

/** Where a teacher's archive stands: waiting for a builder, being built, ready to download, or failed. */
export const ArchiveStatusSchema = lazySchema(() => z.enum(['queued', 'building', 'ready', 'failed']));
export type ArchiveStatus = z.infer<typeof ArchiveStatusSchema>;

/** What an archive holds (known once its build starts; zeros before). */
export const ArchiveCountsSchema = lazySchema(() =>
  z.object({
    portfolios: z.number().int().nonnegative(),
    artifacts: z.number().int().nonnegative(),
    sharedArtifacts: z.number().int().nonnegative(),
    comments: z.number().int().nonnegative(),
    media: z.number().int().nonnegative(),
  }),
);
export type ArchiveCounts = z.infer<typeof ArchiveCountsSchema>;

/** One archive job of the signed-in teacher. */
export const ArchiveJobSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      status: ArchiveStatusSchema,
      /** 0 to 1. */
      progress: z.number().min(0).max(1),
      counts: ArchiveCountsSchema,
      /** The ZIP's size in bytes, once ready. */
      size: z.number().int().nonnegative().nullable(),
      created_at: TimestampSchema,
      finished_at: TimestampSchema.nullable(),
      /** Until when a ready archive can be downloaded. */
      expires_at: TimestampSchema.nullable(),
    })
    .meta({ id: 'ArchiveJob' }),
);
export type ArchiveJob = z.infer<typeof ArchiveJobSchema>;

/** `GET /archives`: the caller's archives, newest first (expired ones are gone). */
export const ArchiveListResponseSchema = lazySchema(() => z.array(ArchiveJobSchema));

/** `POST /archives` takes no fields (an empty object or no body). */
export const ArchiveCreateBodySchema = lazySchema(() => z.strictObject({}).optional());

/** `GET /archives/:id/download` parameters. */
export const ArchiveParamsSchema = lazySchema(() => z.strictObject({ id: IdParamSchema }));

/** Whether a job is still under way (one at a time per teacher). */
export const isArchiveActive = (job: Pick<ArchiveJob, 'status'>): boolean =>
  job.status === 'queued' || job.status === 'building';

// ---------------------------------------------------------------------------------------------
// data.json: the archive's content as data. Its shape is documented by these schemas (and in the
// archive's own README); every timestamp is ISO 8601 in UTC.

/** A question as the archive records it. */
const ArchiveQuestionSchema = lazySchema(() =>
  z.object({
    key: z.string(),
    text: z.string(),
    type: z.string(),
    /** Choices of a choice question. */
    choices: z.array(z.string()).optional(),
    /** A team question of a shared portfolio. */
    team: z.boolean(),
  }),
);

/** One question with its answer (`null`: not answered). */
const ArchiveAnswerSchema = lazySchema(() =>
  z.object({
    key: z.string(),
    question: z.string(),
    type: z.string(),
    team: z.boolean(),
    answer: z.union([z.string(), z.number(), z.array(z.string())]).nullable(),
  }),
);

/** A file of an artifact and where it lies in the archive (`null`: the file was missing on the server). */
const ArchiveMediaSchema = lazySchema(() =>
  z.object({
    id: IdSchema,
    kind: z.enum(['image', 'video', 'document']),
    caption: z.string(),
    name: z.string(),
    mime: z.string(),
    size: z.number().int().nonnegative(),
    alt: z.string(),
    description: z.string(),
    path: z.string().nullable(),
  }),
);

/**
 * One version of an artifact's history: who saved it, when and through what, the answers it
 * changed (each with its new answer; `null`: removed) and the files it added and removed (by id).
 */
const ArchiveVersionSchema = lazySchema(() =>
  z.object({
    number: z.number().int().min(1),
    created_at: TimestampSchema,
    /** The user name of who saved it; `null` for the history's start or an account that is gone. */
    author: z.string().nullable(),
    client: z.string(),
    restoredFrom: z.number().int().min(1).nullable(),
    changes: z.array(
      z.object({
        key: z.string(),
        question: z.string(),
        answer: z.union([z.string(), z.number(), z.array(z.string())]).nullable(),
      }),
    ),
    filesAdded: z.array(IdSchema),
    filesRemoved: z.array(IdSchema),
  }),
);

const ArchiveArtifactBaseSchema = lazySchema(() =>
  z.object({
    id: IdSchema,
    title: z.string(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    answers: z.array(ArchiveAnswerSchema),
    media: z.array(ArchiveMediaSchema),
    /** The artifact's page in the archive. */
    page: z.string(),
    /** Every saved version, oldest first. */
    history: z.array(ArchiveVersionSchema),
  }),
);

/** A comment on one of the teacher's shared artifacts, with its author's user name. */
const ArchiveCommentSchema = lazySchema(() =>
  z.object({
    id: IdSchema,
    author: z.string(),
    text: z.string(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    /** A comment at a moment of a video: the file's id and the time (seconds), else `null`. */
    moment: z.object({ mediaId: IdSchema, start: z.number(), end: z.number().nullable() }).nullable(),
  }),
);

/** `data.json` of a teacher's archive. */
export const ArchiveDataSchema = lazySchema(() =>
  z.object({
    format: z.literal('practicefolio-archive'),
    version: z.literal(1),
    generated_at: TimestampSchema,
    teacher: z.object({ username: z.string(), email: z.string() }),
    portfolios: z.array(
      z.object({
        id: IdSchema,
        name: z.string(),
        subject: z.string().nullable(),
        topic: z.string().nullable(),
        grades: z.array(z.string()),
        created_at: TimestampSchema,
        updated_at: TimestampSchema,
        questions: z.array(ArchiveQuestionSchema),
        page: z.string(),
        artifacts: z.array(ArchiveArtifactBaseSchema.extend({ parkingLot: z.boolean() })),
      }),
    ),
    sharedArtifacts: z.array(
      ArchiveArtifactBaseSchema.extend({
        sharedPortfolio: z.object({ id: IdSchema, name: z.string() }),
        comments: z.array(ArchiveCommentSchema),
      }),
    ),
  }),
);
export type ArchiveData = z.infer<typeof ArchiveDataSchema>;
export type ArchivePortfolioData = ArchiveData['portfolios'][number];
export type ArchiveArtifactData = ArchivePortfolioData['artifacts'][number];
export type ArchiveSharedArtifactData = ArchiveData['sharedArtifacts'][number];
export type ArchiveMediaData = z.infer<typeof ArchiveMediaSchema>;
export type ArchiveAnswerData = z.infer<typeof ArchiveAnswerSchema>;
export type ArchiveCommentData = z.infer<typeof ArchiveCommentSchema>;
export type ArchiveVersionData = z.infer<typeof ArchiveVersionSchema>;
