import {
  researchExportQuery,
  ResearchExportListResponseSchema,
  type ResearchExportFilters,
  type ResearchExportRecord,
} from '../schemas/researchExport.ts';
import { api, apiBase } from './api.ts';

/**
 * The audit log of research exports, latest first (researchers).
 * @throws ApiError, NetworkError, ContractError.
 */
export function listResearchExports(signal?: AbortSignal): Promise<ResearchExportRecord[]> {
  return api().request({
    method: 'GET',
    path: '/research/exports',
    schema: ResearchExportListResponseSchema,
    ...(signal ? { signal } : {}),
  });
}

/** The address that downloads the research package for `filters` (the session cookie authorises it). */
export function researchExportUrl(filters: ResearchExportFilters): string {
  return `${apiBase()}/research/export?${researchExportQuery(filters)}`;
}
