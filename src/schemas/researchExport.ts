import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { IdSchema, TimestampSchema } from './common.ts';
import { MAX_ID } from './rules.ts';

/** How people appear in a research package. */
export const IdentitiesSchema = lazySchema(() => z.enum(['pseudonymous', 'included']));
export type Identities = z.infer<typeof IdentitiesSchema>;

/** Most ids one filter list may name. */
export const EXPORT_FILTER_IDS_MAX = 500;

/** What the researcher confirms before a package may name people (shown next to the option). */
export const CONSENT_STATEMENT =
  'I confirm that every person in this export consented to being identified in this study, and that the ethics approval covers it.';

export const CONSENT_REQUIRED_MESSAGE = 'Confirm that the people in this export consented to being identified.';
export const RANGE_ORDER_MESSAGE = 'The end date must not be before the start date.';

/** A calendar day, `YYYY-MM-DD` (UTC), that exists. */
export const ExportDateSchema = lazySchema(() =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
    }, 'must be a date that exists'),
);

const idList = lazySchema(() =>
  z.array(IdSchema).max(EXPORT_FILTER_IDS_MAX, `must name at most ${EXPORT_FILTER_IDS_MAX} ids`),
);

/**
 * The filters of a research package: a date range (inclusive UTC days, on when artifacts, shared
 * artifacts, comments and reactions were created), shared portfolios and teachers (empty: all),
 * and whether people are named (`included` needs the consent confirmation).
 */
export const ResearchExportFiltersSchema = lazySchema(() =>
  z
    .strictObject({
      from: ExportDateSchema.optional(),
      to: ExportDateSchema.optional(),
      sharedPortfolios: idList.optional(),
      teachers: idList.optional(),
      identities: IdentitiesSchema,
      consentConfirmed: z.boolean().optional(),
    })
    .refine((f) => f.from === undefined || f.to === undefined || f.from <= f.to, {
      message: RANGE_ORDER_MESSAGE,
      path: ['to'],
    })
    .refine((f) => f.identities !== 'included' || f.consentConfirmed === true, {
      message: CONSENT_REQUIRED_MESSAGE,
      path: ['consentConfirmed'],
    })
    .meta({ id: 'ResearchExportFilters' }),
);
export type ResearchExportFilters = z.infer<typeof ResearchExportFiltersSchema>;

const queryIdList = lazySchema(() =>
  z
    .string()
    .regex(/^[0-9]{1,10}(,[0-9]{1,10})*$/, 'must be ids separated by commas')
    .transform((value) => [...new Set(value.split(',').map(Number))])
    .pipe(z.array(z.number().int().positive('must hold positive ids').max(MAX_ID, 'holds an id out of range'))),
);

/**
 * `GET /research/export` query: the filters as a download link carries them (`teachers=3,7`,
 * `consentConfirmed=true`); unknown parameters are refused.
 */
export const ResearchExportQuerySchema = lazySchema(() =>
  z
    .strictObject({
      from: z.string().optional(),
      to: z.string().optional(),
      sharedPortfolios: queryIdList.optional(),
      teachers: queryIdList.optional(),
      identities: IdentitiesSchema.default('pseudonymous'),
      consentConfirmed: z.enum(['true', 'false']).optional(),
    })
    .transform((q): z.input<typeof ResearchExportFiltersSchema> => ({
      identities: q.identities,
      ...(q.from === undefined ? {} : { from: q.from }),
      ...(q.to === undefined ? {} : { to: q.to }),
      ...(q.sharedPortfolios === undefined ? {} : { sharedPortfolios: q.sharedPortfolios }),
      ...(q.teachers === undefined ? {} : { teachers: q.teachers }),
      ...(q.consentConfirmed === undefined ? {} : { consentConfirmed: q.consentConfirmed === 'true' }),
    }))
    .pipe(ResearchExportFiltersSchema),
);

/** The query string of a download link for `filters` (the inverse of `ResearchExportQuerySchema`). */
export function researchExportQuery(filters: ResearchExportFilters): string {
  const params = new URLSearchParams();
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.sharedPortfolios && filters.sharedPortfolios.length > 0)
    params.set('sharedPortfolios', filters.sharedPortfolios.join(','));
  if (filters.teachers && filters.teachers.length > 0) params.set('teachers', filters.teachers.join(','));
  params.set('identities', filters.identities);
  if (filters.identities === 'included' && filters.consentConfirmed) params.set('consentConfirmed', 'true');
  return params.toString();
}

/** The state of one export in the audit log. */
export const ResearchExportStatusSchema = lazySchema(() => z.enum(['running', 'completed', 'cancelled', 'failed']));
export type ResearchExportStatus = z.infer<typeof ResearchExportStatusSchema>;

/** One entry of the audit log: who exported what, when, and how many rows each file held. */
export const ResearchExportRecordSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      researcher: z.object({ id: IdSchema, username: z.string() }),
      parameters: ResearchExportFiltersSchema,
      status: ResearchExportStatusSchema,
      rowCounts: z.record(z.string(), z.number().int().nonnegative()),
      bytes: z.number().int().nonnegative().nullable(),
      started_at: TimestampSchema,
      finished_at: TimestampSchema.nullable(),
    })
    .meta({ id: 'ResearchExportRecord' }),
);
export type ResearchExportRecord = z.infer<typeof ResearchExportRecordSchema>;

/** `GET /research/exports`: the latest exports first. */
export const ResearchExportListResponseSchema = lazySchema(() => z.array(ResearchExportRecordSchema));

/** How many audit entries the list shows. */
export const RESEARCH_EXPORT_LOG_LIMIT = 200;
