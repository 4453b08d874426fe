import {
  ResearchExportFiltersSchema,
  type Identities,
  type ResearchExportFilters,
} from '../../schemas/researchExport.ts';

/** The form as the researcher fills it in. */
export interface ExportDraft {
  /** `YYYY-MM-DD` or empty. */
  from: string;
  to: string;
  teachers: number[];
  sharedPortfolios: number[];
  identities: Identities;
  consentConfirmed: boolean;
}

/** The form's fields that can hold a problem. */
export type ExportField = 'from' | 'to' | 'teachers' | 'sharedPortfolios' | 'identities' | 'consentConfirmed';

export const EMPTY_DRAFT: ExportDraft = {
  from: '',
  to: '',
  teachers: [],
  sharedPortfolios: [],
  identities: 'pseudonymous',
  consentConfirmed: false,
};

/** The filters the draft asks for (empty fields left out). */
export function filtersOf(draft: ExportDraft): ResearchExportFilters {
  return {
    identities: draft.identities,
    ...(draft.from ? { from: draft.from } : {}),
    ...(draft.to ? { to: draft.to } : {}),
    ...(draft.teachers.length > 0 ? { teachers: draft.teachers } : {}),
    ...(draft.sharedPortfolios.length > 0 ? { sharedPortfolios: draft.sharedPortfolios } : {}),
    ...(draft.identities === 'included' ? { consentConfirmed: draft.consentConfirmed } : {}),
  };
}

const FIELD_NAMES: Record<ExportField, string> = {
  from: 'The start date',
  to: 'The end date',
  teachers: 'The teachers',
  sharedPortfolios: 'The shared portfolios',
  identities: 'The identities option',
  consentConfirmed: 'The consent confirmation',
};

/** What is wrong with the draft, per field (empty when it may be exported), with the server's own rules. */
export function problemsOf(draft: ExportDraft): Partial<Record<ExportField, string>> {
  const result = ResearchExportFiltersSchema.safeParse(filtersOf(draft));
  if (result.success) return {};
  const problems: Partial<Record<ExportField, string>> = {};
  for (const issue of result.error.issues) {
    const field = (issue.path[0] ?? 'identities') as ExportField;
    if (problems[field]) continue;
    problems[field] = /[.!?]$/.test(issue.message) ? issue.message : `${FIELD_NAMES[field]} ${issue.message}.`;
  }
  return problems;
}
