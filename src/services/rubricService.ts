import {
  PortfolioRubricSchema,
  RubricListSchema,
  RubricSchema,
  ScoreListSchema,
  ScoreSchema,
  type PortfolioRubric,
  type Rubric,
  type RubricCreateBody,
  type RubricUpdateBody,
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

/**
 * The rubrics a shared portfolio may use (its own and the installation's).
 * @throws ApiError, NetworkError or ContractError.
 */
export function listRubrics(sharedPortfolioId: number, signal?: AbortSignal): Promise<Rubric[]> {
  return api().request({
    method: 'GET',
    path: '/rubrics',
    query: { sharedPortfolio: sharedPortfolioId },
    schema: RubricListSchema,
    ...withSignal(signal),
  });
}

/**
 * Creates a rubric (for a shared portfolio, or installation-wide).
 * @throws ApiError (400 with the server's words, 403, 429: too many rubrics), NetworkError or ContractError.
 */
export function createRubric(body: RubricCreateBody, signal?: AbortSignal): Promise<Rubric> {
  return api().request({ method: 'POST', path: '/rubrics', body, schema: RubricSchema, ...withSignal(signal) });
}

/**
 * Replaces a rubric's name, description and criteria; a rubric that scores use gets a new version.
 * @throws ApiError (400, 403, 404), NetworkError or ContractError.
 */
export function updateRubric(id: number, body: RubricUpdateBody, signal?: AbortSignal): Promise<Rubric> {
  return api().request({ method: 'PUT', path: `/rubrics/${id}`, body, schema: RubricSchema, ...withSignal(signal) });
}

/**
 * Chooses the rubric a shared portfolio scores with (`null`: none).
 * @throws ApiError (400: a rubric it may not use, 403), NetworkError or ContractError.
 */
export function choosePortfolioRubric(
  sharedPortfolioId: number,
  rubric: number | null,
  signal?: AbortSignal,
): Promise<PortfolioRubric> {
  return api().request({
    method: 'PUT',
    path: `/shared-portfolios/${sharedPortfolioId}/rubric`,
    body: { rubric },
    schema: PortfolioRubricSchema,
    ...withSignal(signal),
  });
}
