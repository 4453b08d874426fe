import {
  PortfolioRubricSchema,
  RubricListSchema,
  RubricSchema,
  type PortfolioRubric,
  type Rubric,
  type RubricCreateBody,
  type RubricUpdateBody,
} from '../schemas/rubrics.ts';
import { api } from './api.ts';

// Making, changing and choosing rubrics: apart from the scoring's services, so that the shared
// discussion's chunk does not carry them.

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

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
 * The installation-wide rubrics (the researchers' rubrics page).
 * @throws ApiError, NetworkError or ContractError.
 */
export function listInstallationRubrics(signal?: AbortSignal): Promise<Rubric[]> {
  return api().request({
    method: 'GET',
    path: '/rubrics',
    query: { scope: 'installation' },
    schema: RubricListSchema,
    ...withSignal(signal),
  });
}

/**
 * Deletes a rubric nothing uses; the rubric as it was.
 * @throws ApiError (409: scores were given with it or shared portfolios score with it, in the
 * server's words; 403, 404), NetworkError or ContractError.
 */
export function deleteRubric(id: number, signal?: AbortSignal): Promise<Rubric> {
  return api().request({ method: 'DELETE', path: `/rubrics/${id}`, schema: RubricSchema, ...withSignal(signal) });
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
