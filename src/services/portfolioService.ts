import {
  PortfolioDeleteResponseSchema,
  PortfolioListResponseSchema,
  PortfolioSchema,
  PortfolioSummarySchema,
  type Portfolio,
  type PortfolioCreateBody,
  type PortfolioListItem,
  type PortfolioSummary,
  type PortfolioUpdateBody,
} from '../schemas/portfolio.ts';
import { api, apiBase } from './api.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** My portfolios; researchers: everyone's, or one owner's. */
export function listPortfolios(query: { owner?: number } = {}, signal?: AbortSignal): Promise<PortfolioListItem[]> {
  return api().request({
    method: 'GET',
    path: '/portfolios',
    schema: PortfolioListResponseSchema,
    ...(query.owner !== undefined ? { query: { owner: query.owner } } : {}),
    ...withSignal(signal),
  });
}

/** One portfolio with its artifacts. */
export function getPortfolio(id: number, signal?: AbortSignal): Promise<Portfolio> {
  return api().request({ method: 'GET', path: `/portfolios/${id}`, schema: PortfolioSchema, ...withSignal(signal) });
}

/** One portfolio with its artifacts in brief, as the artifacts table needs them (`getArtifact` reads one whole). */
export function getPortfolioSummary(id: number, signal?: AbortSignal): Promise<PortfolioSummary> {
  return api().request({
    method: 'GET',
    path: `/portfolios/${id}/summary`,
    schema: PortfolioSummarySchema,
    ...withSignal(signal),
  });
}

/** Creates a portfolio from the Basic template. */
export function createPortfolio(body: PortfolioCreateBody, signal?: AbortSignal): Promise<Portfolio> {
  return api().request({ method: 'POST', path: '/portfolios', body, schema: PortfolioSchema, ...withSignal(signal) });
}

/** Changes a portfolio. */
export function updatePortfolio(id: number, body: PortfolioUpdateBody, signal?: AbortSignal): Promise<Portfolio> {
  return api().request({
    method: 'PUT',
    path: `/portfolios/${id}`,
    body,
    schema: PortfolioSchema,
    ...withSignal(signal),
  });
}

/** Deletes an empty portfolio. */
export function deletePortfolio(id: number, signal?: AbortSignal): Promise<PortfolioListItem> {
  return api().request({
    method: 'DELETE',
    path: `/portfolios/${id}`,
    schema: PortfolioDeleteResponseSchema,
    ...withSignal(signal),
  });
}

/** The address that downloads `teacher portfolios.csv` (researchers; the session cookie authorises it). */
export function teacherExportUrl(): string {
  return `${apiBase()}/portfolios/export`;
}
