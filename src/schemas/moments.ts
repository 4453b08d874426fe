import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { COMMENT_MAX } from './catalog.ts';
import { IdParamSchema, IdSchema, TimestampSchema } from './common.ts';

/**
 * Video moments, private notes, caption tracks and per-file alt text.
 *
 * A moment is a time (`end` null) or a start–end range of one video, in seconds. The server
 * checks the rest (the media is a video the artifact holds, `end` within the video's duration).
 */

/** Longest video time accepted anywhere (24 hours, in seconds); the real bound is the video's duration. */
export const MOMENT_MAX_SECONDS = 86_400;
/** Alt text and description limits (characters), as the database holds them. */
export const ALT_MAX = 1000;
export const DESCRIPTION_MAX = 2500;
/** Caption limits: a file's text, and a stored track as WebVTT, at most 512 KiB. */
export const CAPTION_SOURCE_MAX_BYTES = 512 * 1024;
export const CAPTION_CUES_MAX = 5000;
export const CAPTION_CUE_TEXT_MAX = 1000;
export const CAPTION_LABEL_MAX = 100;
/** Caption tracks of one video in one artifact. */
export const CAPTION_TRACKS_MAX = 10;
/** A cue of an exported time without an end lasts this long (seconds). */
export const MOMENT_CUE_SECONDS = 4;

/** A time in a video, in seconds: a finite number from 0 (strings, NaN and infinities are refused). */
export const MomentTimeSchema = lazySchema(() =>
  z
    .number({ error: 'A time must be a number of seconds.' })
    .min(0, 'A time cannot be negative.')
    .max(MOMENT_MAX_SECONDS, 'A time cannot be past the end of the video.'),
);

/** A moment as responses carry it. */
export const MomentSchema = lazySchema(() =>
  z
    .object({
      media: IdSchema,
      start: z.number(),
      end: z.number().nullable(),
    })
    .meta({ id: 'Moment' }),
);
export type Moment = z.infer<typeof MomentSchema>;

/** A moment as a comment or reaction body sends it. */
export const MomentBodySchema = lazySchema(() =>
  z
    .strictObject({
      media: IdSchema,
      start: MomentTimeSchema,
      end: MomentTimeSchema.nullable().optional(),
    })
    .refine((m) => m.end === undefined || m.end === null || m.end >= m.start, {
      message: 'The end of a moment cannot be before its start.',
      path: ['end'],
    }),
);
export type MomentBody = z.input<typeof MomentBodySchema>;

// ---------------------------------------------------------------------------------------------
// Private notes

const noteText = lazySchema(() =>
  z
    .string({ error: 'Please enter a note.' })
    .max(COMMENT_MAX, `A note can be at most ${COMMENT_MAX} characters.`)
    .refine((t) => t.trim().length > 0, 'Please enter a note.'),
);

/** A private note of the owner of an artifact at a moment of one of its videos. */
export const NoteSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      artifact: IdSchema,
      media: IdSchema,
      start: z.number(),
      end: z.number().nullable(),
      text: z.string(),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
    })
    .meta({ id: 'Note' }),
);
export type Note = z.infer<typeof NoteSchema>;
export const NoteListSchema = lazySchema(() => z.array(NoteSchema));

/** `POST /artifacts/{id}/notes`. */
export const NoteBodySchema = lazySchema(() =>
  z
    .strictObject({
      media: IdSchema,
      start: MomentTimeSchema,
      end: MomentTimeSchema.nullable().optional(),
      text: noteText,
    })
    .refine((m) => m.end === undefined || m.end === null || m.end >= m.start, {
      message: 'The end of a moment cannot be before its start.',
      path: ['end'],
    }),
);
export type NoteBody = z.input<typeof NoteBodySchema>;

/** `PATCH /artifact-notes/{id}`: any of the text and the times. */
export const NoteUpdateBodySchema = lazySchema(() =>
  z
    .strictObject({
      text: noteText.optional(),
      start: MomentTimeSchema.optional(),
      end: MomentTimeSchema.nullable().optional(),
    })
    .refine((b) => b.text !== undefined || b.start !== undefined || b.end !== undefined, 'Nothing to change.'),
);
export type NoteUpdateBody = z.input<typeof NoteUpdateBodySchema>;

// ---------------------------------------------------------------------------------------------
// Captions

/** One caption cue: times in seconds and its text (WebVTT cue text; only the cue tags b, i, u, v, c, lang, ruby, rt). */
export const CueSchema = lazySchema(() =>
  z
    .object({
      start: z.number(),
      end: z.number(),
      text: z.string(),
    })
    .meta({ id: 'Cue' }),
);
export type Cue = z.infer<typeof CueSchema>;

/** A cue as the caption editor sends it. */
export const CueBodySchema = lazySchema(() =>
  z
    .strictObject({
      start: MomentTimeSchema,
      end: MomentTimeSchema,
      text: z
        .string()
        .max(CAPTION_CUE_TEXT_MAX, `A caption can be at most ${CAPTION_CUE_TEXT_MAX} characters.`)
        .refine((t) => t.trim().length > 0, 'A caption cannot be empty.'),
    })
    .refine((c) => c.end > c.start, { message: 'A caption must end after it starts.', path: ['end'] }),
);
export type CueBody = z.input<typeof CueBodySchema>;

/** A language tag (BCP 47 shape: `en`, `en-US`, `zh-Hant-TW`). */
export const CaptionLanguageSchema = lazySchema(() =>
  z
    .string()
    .min(2, 'Please choose a language.')
    .max(35, 'A language tag can be at most 35 characters.')
    .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'Please give a language tag such as en or es-MX.'),
);

const captionLabel = lazySchema(() =>
  z
    .string()
    .trim()
    .min(1, 'Please give the track a label.')
    .max(CAPTION_LABEL_MAX, `A label can be at most ${CAPTION_LABEL_MAX} characters.`),
);

/**
 * A caption track of a video as an artifact holds it, without its cues (a video's list stays
 * small): `cueCount` counts them, `url` is the `track.vtt` path relative to the API base, and
 * `GET /captions/{id}` gives the track with its cues.
 */
export const CaptionTrackSummarySchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      media: IdSchema,
      language: z.string(),
      label: z.string(),
      cueCount: z.number().int().min(0),
      url: z.string(),
      canEdit: z.boolean(),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
    })
    .meta({ id: 'CaptionTrackSummary' }),
);
export type CaptionTrackSummary = z.infer<typeof CaptionTrackSummarySchema>;
export const CaptionTrackListSchema = lazySchema(() => z.array(CaptionTrackSummarySchema));

/** A caption track with its cues. */
export const CaptionTrackSchema = lazySchema(() =>
  CaptionTrackSummarySchema.extend({ cues: z.array(CueSchema) }).meta({
    id: 'CaptionTrack',
  }),
);
export type CaptionTrack = z.infer<typeof CaptionTrackSchema>;

/** `POST /artifacts/{id}/media/{mediaId}/captions` (and `/shared-artifacts/…`): a WebVTT or SRT file's text (SRT is converted to WebVTT). */
export const CaptionUploadBodySchema = lazySchema(() =>
  z.strictObject({
    language: CaptionLanguageSchema,
    label: captionLabel,
    format: z.enum(['vtt', 'srt'], { error: 'The format must be vtt or srt.' }),
    source: z
      .string({ error: 'Please attach the caption file text.' })
      .min(1, 'The caption file is empty.')
      .max(CAPTION_SOURCE_MAX_BYTES, 'A caption file can be at most 512 KiB.'),
  }),
);
export type CaptionUploadBody = z.input<typeof CaptionUploadBodySchema>;

/** The answer to an upload: the track, and what was changed to fit the video (cues past its end cut or left out), if anything. */
export const CaptionUploadResponseSchema = lazySchema(() =>
  CaptionTrackSchema.extend({ notice: z.string().nullable() }).meta({
    id: 'CaptionUploadResponse',
  }),
);
export type CaptionUploadResponse = z.infer<typeof CaptionUploadResponseSchema>;

/** `PUT /captions/{id}`: the whole track as the caption editor holds it. */
export const CaptionUpdateBodySchema = lazySchema(() =>
  z.strictObject({
    language: CaptionLanguageSchema,
    label: captionLabel,
    cues: z.array(CueBodySchema).max(CAPTION_CUES_MAX, `A track can have at most ${CAPTION_CUES_MAX} captions.`),
  }),
);
export type CaptionUpdateBody = z.input<typeof CaptionUpdateBodySchema>;

/** `GET /captions/{id}/track.vtt?download=1`. */
export const CaptionFileQuerySchema = lazySchema(() => z.strictObject({ download: z.enum(['0', '1']).optional() }));

// ---------------------------------------------------------------------------------------------
// Alt text and description

/** `PATCH /artifacts/{id}/media/{mediaId}` and `PATCH /shared-artifacts/{id}/media/{mediaId}`. */
export const MediaTextBodySchema = lazySchema(() =>
  z
    .strictObject({
      alt: z.string().max(ALT_MAX, `Alt text can be at most ${ALT_MAX} characters.`).optional(),
      description: z
        .string()
        .max(DESCRIPTION_MAX, `A description can be at most ${DESCRIPTION_MAX} characters.`)
        .optional(),
    })
    .refine((b) => b.alt !== undefined || b.description !== undefined, 'Nothing to change.'),
);
export type MediaTextBody = z.input<typeof MediaTextBodySchema>;

/** The multipart text fields an upload accepts with the file. */
export const MediaUploadFieldsSchema = lazySchema(() =>
  z.strictObject({
    alt: z.string().max(ALT_MAX, `Alt text can be at most ${ALT_MAX} characters.`).optional(),
    description: z
      .string()
      .max(DESCRIPTION_MAX, `A description can be at most ${DESCRIPTION_MAX} characters.`)
      .optional(),
  }),
);

/** `{ id, mediaId }` path parameters: a file as an artifact or shared artifact holds it. */
export const ArtifactMediaParamsSchema = lazySchema(() =>
  z.strictObject({ id: IdParamSchema, mediaId: IdParamSchema }),
);
