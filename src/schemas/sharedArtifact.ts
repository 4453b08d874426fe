import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { CommentAbilitiesSchema } from './abilities.ts';
import { COMMENT_MAX } from './catalog.ts';
import { IdParamSchema, IdSchema, TimestampSchema } from './common.ts';
import { MediaKindSchema, MediaSchema } from './media.ts';
import { MomentBodySchema, MomentSchema } from './moments.ts';
import { PersonSchema, ReactionValueSchema, SharedArtifactSchema } from './sharedPortfolio.ts';
import { ResponsesSchema, ResponseValueSchema } from './structure.ts';

/**
 * The shared artifact a comment or reaction belongs to, without its structure, responses and
 * files: the populated relation the original server sent and the mobile apps index as a map.
 */
export const DiscussedArtifactSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      sharedPortfolio: IdSchema,
      owner: IdSchema,
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
    })
    .meta({ id: 'DiscussedArtifact' }),
);

/** A comment. `owner` and `sharedArtifact` are populated maps (the mobile apps read both as maps). */
export const CommentSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      text: z.string(),
      owner: PersonSchema,
      username: z.string(),
      sharedArtifact: DiscussedArtifactSchema,
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
      updated_by: IdSchema.nullable(),
      /** The moment of a video the comment is anchored to; `null`: the whole artifact. */
      moment: MomentSchema.nullable(),
      /** What the caller may do with it (answers to the web; absent in the mobile apps' lists). */
      abilities: CommentAbilitiesSchema.optional(),
    })
    .meta({ id: 'Comment' }),
);
export type Comment = z.infer<typeof CommentSchema>;

/** A reaction. `owner` and `sharedArtifact` are populated maps, as for comments. */
export const ReactionSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      value: z.string(),
      owner: PersonSchema,
      sharedArtifact: DiscussedArtifactSchema,
      created_by: IdSchema.nullable(),
      updated_by: IdSchema.nullable(),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
      /** The moment of a video the reaction is placed at; `null`: the whole artifact. */
      moment: MomentSchema.nullable(),
    })
    .meta({ id: 'Reaction' }),
);
export type Reaction = z.infer<typeof ReactionSchema>;

/** `GET /shared-artifacts/{id}`: the artifact with its comments and reactions. */
export const SharedArtifactDetailSchema = lazySchema(() =>
  SharedArtifactSchema.omit({ reactions: true })
    .extend({
      comments: z.array(CommentSchema),
      reactions: z.array(ReactionSchema),
      /**
       * The number of the newest version in its history, read after the answers above: a web edit is
       * based on it and, when a save in between is refused, merges from it (`0`: no version yet).
       */
      version: z.number().int().min(0),
    })
    .meta({ id: 'SharedArtifactDetail' }),
);
export type SharedArtifactDetail = z.infer<typeof SharedArtifactDetailSchema>;
export const SharedArtifactListResponseSchema = lazySchema(() => z.array(SharedArtifactSchema));

/**
 * `PUT /shared-artifacts/{id}`: replaces the responses. `updated_at` is the version the editor
 * saw (after the web merged with a later save: that save's); when the stored version is newer the
 * server answers 409 and changes nothing.
 */
export const SharedArtifactUpdateBodySchema = lazySchema(() =>
  z.strictObject({
    responses: ResponsesSchema,
    updated_at: z.string().max(64).optional(),
    id: IdSchema.optional(),
  }),
);
export type SharedArtifactUpdateBody = z.infer<typeof SharedArtifactUpdateBodySchema>;

/** The mobile apps' merge update of a shared artifact. */
export const SharedArtifactMergeBodySchema = lazySchema(() =>
  z.strictObject({
    responses: z.record(z.string(), ResponseValueSchema.nullable()),
    updated_at: z.string().max(64).optional(),
  }),
);

/** Gate check query and answer. */
export const GateCheckQuerySchema = lazySchema(() => z.strictObject({ updated_at: z.string().max(64).optional() }));
export const GateCheckResponseSchema = lazySchema(() =>
  z.object({
    type: z.enum(['ok', 'warning', 'error']),
    message: z.string(),
    /** The stored version (the one a save after this check may be based on). */
    updated_at: z.string().optional(),
    /** With a warning: who saved the stored version (`null`: not known). */
    saved_by: z.object({ id: IdSchema, username: z.string() }).nullable().optional(),
  }),
);
export type GateCheckResponse = z.infer<typeof GateCheckResponseSchema>;

/** `POST …/lock` answer. */
export const LockResponseSchema = lazySchema(() =>
  SharedArtifactSchema.extend({ lock: z.string(), lockedUntil: TimestampSchema }),
);
export const UnlockBodySchema = lazySchema(() => z.strictObject({ lock: z.string().max(100).optional() }).optional());

/** `POST /artifacts/{id}/share` and `POST /shared-artifacts/{id}/share`. */
export const ShareBodySchema = lazySchema(() =>
  z.strictObject({
    sharedPortfolioId: z.union([IdSchema, IdParamSchema], {
      error: 'sharedPortfolioId must be a shared portfolio id.',
    }),
    /** Copy the owner's private notes as moment comments on the new shared artifact (default false). */
    includeNotes: z.boolean({ error: 'includeNotes must be true or false.' }).optional(),
  }),
);
export type ShareBody = z.input<typeof ShareBodySchema>;

/** The answer to a copy: the new shared artifact (clients read its `id`). */
export const ShareResponseSchema = SharedArtifactSchema;

/** `POST /comments`; `owner` and `updated_by` are accepted for old clients and ignored (the owner is the caller). */
export const CommentBodySchema = lazySchema(() =>
  z.strictObject({
    text: z
      .string()
      .max(COMMENT_MAX, `A comment can be at most ${COMMENT_MAX} characters.`)
      .refine((t) => t.trim().length > 0, 'Please enter a comment.'),
    sharedArtifact: z.union([IdSchema, IdParamSchema], { error: 'sharedArtifact must be a shared artifact id.' }),
    owner: IdSchema.optional(),
    updated_by: IdSchema.optional(),
    /** A moment of a video of the shared artifact; absent or `null`: the whole artifact (on update: absent keeps it). */
    moment: MomentBodySchema.nullable().optional(),
  }),
);
export type CommentBody = z.input<typeof CommentBodySchema>;

/** `PUT /comments/{id}`: the text changes, and the moment when sent (`null` moves the comment to the whole artifact). */
export const CommentUpdateBodySchema = lazySchema(() => CommentBodySchema.partial({ sharedArtifact: true }));

/** Comment answers carry the artifact's comments and the portfolio's comment count (as the original). */
export const CommentResponseSchema = lazySchema(() =>
  CommentSchema.extend({
    sharedArtifactComments: z.array(CommentSchema),
    sharedPortfolioCommentCount: z.number().int(),
  }),
);

/** `POST /reactions`; `owner`, `created_by`, `updated_by` are accepted and ignored. */
export const ReactionBodySchema = lazySchema(() =>
  z.strictObject({
    sharedArtifact: z.union([IdSchema, IdParamSchema], { error: 'sharedArtifact must be a shared artifact id.' }),
    value: ReactionValueSchema,
    owner: IdSchema.optional(),
    created_by: IdSchema.optional(),
    updated_by: IdSchema.optional(),
    /** A moment of a video of the shared artifact; absent or `null`: the whole artifact. */
    moment: MomentBodySchema.nullable().optional(),
  }),
);
export type ReactionBody = z.input<typeof ReactionBodySchema>;
export const AvailableReactionsSchema = lazySchema(() => z.array(z.string()));

/** Upload answer for a shared artifact. */
export const SharedArtifactMediaResponseSchema = lazySchema(() =>
  MediaSchema.extend({ parentSharedArtifact: SharedArtifactSchema }),
);
export const SharedUploadParamsSchema = lazySchema(() =>
  z.strictObject({
    id: IdParamSchema,
    artifactId: IdParamSchema,
    kind: MediaKindSchema,
  }),
);
export const SharedFileDeleteParamsSchema = lazySchema(() =>
  SharedUploadParamsSchema.extend({ fileId: IdParamSchema }),
);
