import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { ArtifactAbilitiesSchema } from './abilities.ts';
import { IdParamSchema, IdSchema, TimestampSchema } from './common.ts';
import { MediaSchema } from './media.ts';
import { ResponsesSchema, ResponseValueSchema, StructureSchema } from './structure.ts';

/** The author of an artifact, as tables show it. */
export const ArtifactOwnerSchema = lazySchema(() =>
  z.object({ id: IdSchema, username: z.string(), email: z.string() }),
);

/** A personal artifact. */
export const ArtifactSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      portfolio: z.object({ id: IdSchema }),
      parkingLot: z.boolean(),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
      structure: StructureSchema,
      responses: ResponsesSchema,
      nextCaption: z.string(),
      owner: ArtifactOwnerSchema,
      ownerUsername: z.string(),
      portfolioGrades: z.array(z.string()),
      commentCount: z.number().int(),
      commentTexts: z.array(z.string()),
      /**
       * `false` from Create New Artifact until the first save: such an artifact is listed and
       * counted nowhere, and is removed when its editor is left or after a day.
       */
      saved: z.boolean(),
      images: z.array(MediaSchema),
      videos: z.array(MediaSchema),
      documents: z.array(MediaSchema),
      /** What the caller may do with it (answers to the web; absent in the mobile apps' lists). */
      abilities: ArtifactAbilitiesSchema.optional(),
    })
    .meta({ id: 'Artifact' }),
);
export type Artifact = z.infer<typeof ArtifactSchema>;

/** `GET /artifacts` (mobile): the caller's artifacts; `portfolio` is the id. */
export const ArtifactListItemSchema = lazySchema(() =>
  ArtifactSchema.omit({ portfolio: true }).extend({ portfolio: IdSchema }),
);
export const ArtifactListResponseSchema = lazySchema(() => z.array(ArtifactListItemSchema));

/**
 * `POST /portfolios/{id}/artifacts/responses`: a new artifact. The structure always comes from
 * the portfolio (a `structure` sent by old clients must equal it or be omitted).
 */
export const ArtifactCreateBodySchema = lazySchema(() =>
  z
    .strictObject({
      structure: StructureSchema.optional(),
      responses: ResponsesSchema.optional(),
      parkingLot: z.boolean().optional(),
    })
    .optional(),
);
export type ArtifactCreateBody = z.infer<typeof ArtifactCreateBodySchema>;

/** `PUT /artifacts/{id}`: replaces the responses; `parkingLot: false` submits to the portfolio. */
export const ArtifactUpdateBodySchema = lazySchema(() =>
  z.strictObject({
    responses: ResponsesSchema,
    parkingLot: z.boolean().optional(),
    /** Sent back by clients that echo the artifact; must be the artifact's own id. */
    id: IdSchema.optional(),
  }),
);
export type ArtifactUpdateBody = z.infer<typeof ArtifactUpdateBodySchema>;

/** The mobile apps' merge update: each key overwrites; `null` deletes the key. */
export const ArtifactMergeBodySchema = lazySchema(() =>
  z.strictObject({
    responses: z.record(z.string(), ResponseValueSchema.nullable()).optional(),
    parkingLot: z.boolean().optional(),
    structure: StructureSchema.optional(),
  }),
);
export type ArtifactMergeBody = z.infer<typeof ArtifactMergeBodySchema>;

/** An upload's answer: the file, and the artifact it now belongs to. */
export const ArtifactMediaResponseSchema = lazySchema(() => MediaSchema.extend({ parentArtifact: ArtifactSchema }));
export type ArtifactMediaResponse = z.infer<typeof ArtifactMediaResponseSchema>;

/** `PUT /portfolios/{id}/artifacts/{artifactId}/responses` path. */
export const NestedArtifactParamsSchema = lazySchema(() =>
  z.strictObject({ id: IdParamSchema, artifactId: IdParamSchema }),
);
