import { InsightsSchema, type Insights } from '../schemas/insights.ts';
import { api } from './api.ts';

/** What the charts are asked for: a shared portfolio (or all the caller may chart) and a range of days. */
export interface InsightsFilters {
  sharedPortfolio: number | null;
  /** `YYYY-MM-DD` or empty. */
  from: string;
  to: string;
}

/**
 * The numbers behind the charts (researchers: the installation; a lead: her shared portfolios).
 * @throws ApiError (403 for a teacher who leads nothing, 404 for a portfolio not hers), NetworkError or ContractError.
 */
export function fetchInsights(filters: InsightsFilters, signal?: AbortSignal): Promise<Insights> {
  return api().request({
    method: 'GET',
    path: '/insights',
    query: {
      sharedPortfolio: filters.sharedPortfolio ?? undefined,
      from: filters.from || undefined,
      to: filters.to || undefined,
    },
    schema: InsightsSchema,
    ...(signal ? { signal } : {}),
  });
}
