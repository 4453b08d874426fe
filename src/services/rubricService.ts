import {
  PortfolioRubricSchema,
  ScoreListSchema,
  ScoreSchema,
  type PortfolioRubric,
  type Score,
  type ScoreBody,
} from '../schemas/rubrics.ts';
import { api } from './api.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/**
 * The rubric a shared portfolio scores with, and whether I may score there.
 * @throws ApiError (404: not a portfolio I read), NetworkError or ContractError.
 */
export function fetchPortfolioRubric(sharedPortfolioId: number, signal?: AbortSignal): Promise<PortfolioRubric> {
  return api().request({
    method: 'GET',
    path: `/shared-portfolios/${sharedPortfolioId}/rubric`,
    schema: PortfolioRubricSchema,
    ...withSignal(signal),
  });
}

/**
 * The scores of a shared artifact I may see.
 * @throws ApiError, NetworkError or ContractError.
 */
export function listScores(sharedArtifactId: number, signal?: AbortSignal): Promise<Score[]> {
  return api().request({
    method: 'GET',
    path: `/shared-artifacts/${sharedArtifactId}/scores`,
    schema: ScoreListSchema,
    ...withSignal(signal),
  });
}

/**
 * Scores a shared artifact on a criterion (at a moment of a video, or the whole artifact).
 * @throws ApiError (400 with the server's words for a level, criterion or moment that does not fit), NetworkError or ContractError.
 */
export function createScore(body: ScoreBody, signal?: AbortSignal): Promise<Score> {
  return api().request({ method: 'POST', path: '/scores', body, schema: ScoreSchema, ...withSignal(signal) });
}

/**
 * Deletes my score.
 * @throws ApiError, NetworkError or ContractError.
 */
export function deleteScore(id: number, signal?: AbortSignal): Promise<Score> {
  return api().request({ method: 'DELETE', path: `/scores/${id}`, schema: ScoreSchema, ...withSignal(signal) });
}
