import {
  CoverageArtifactPageSchema,
  CoverageSchema,
  type Coverage,
  type CoverageArtifactPage,
  type CoverageRequest,
} from '../schemas/coverage.ts';
import { api } from './api.ts';

const queryOf = (q: CoverageRequest) => ({
  scope: q.scope,
  ...(q.id === null ? {} : { id: q.id }),
  rows: q.rows,
  dimension: q.dimension,
});

/**
 * A coverage map.
 * @throws ApiError (404: a teacher or portfolio I may not see; 403: the installation, not a researcher), NetworkError or ContractError.
 */
export function fetchCoverage(q: CoverageRequest, signal?: AbortSignal): Promise<Coverage> {
  return api().request({
    method: 'GET',
    path: '/coverage',
    query: queryOf(q),
    schema: CoverageSchema,
    ...(signal ? { signal } : {}),
  });
}

/**
 * One page of the artifacts behind a cell (`row`: the row's id, `column`: its code).
 * @throws ApiError, NetworkError or ContractError.
 */
export function fetchCoverageArtifacts(
  q: CoverageRequest & { row: number; column: string; page: number },
  signal?: AbortSignal,
): Promise<CoverageArtifactPage> {
  return api().request({
    method: 'GET',
    path: '/coverage/artifacts',
    query: { ...queryOf(q), row: q.row, column: q.column, page: q.page },
    schema: CoverageArtifactPageSchema,
    ...(signal ? { signal } : {}),
  });
}
