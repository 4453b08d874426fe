import { ArtifactSchema, type Artifact, type ArtifactUpdateBody } from '../schemas/artifact.ts';
import type { Responses } from '../schemas/structure.ts';
import { api } from './api.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** Creates an empty artifact in the parking lot of a portfolio. */
export function createArtifact(portfolioId: number, signal?: AbortSignal): Promise<Artifact> {
  return api().request({
    method: 'POST',
    path: `/portfolios/${portfolioId}/artifacts/responses`,
    body: { responses: {} as Responses, parkingLot: true },
    schema: ArtifactSchema,
    ...withSignal(signal),
  });
}

/** One artifact. */
export function getArtifact(id: number, signal?: AbortSignal): Promise<Artifact> {
  return api().request({ method: 'GET', path: `/artifacts/${id}`, schema: ArtifactSchema, ...withSignal(signal) });
}

/** Saves an artifact's answers; `parkingLot: false` submits it to the portfolio. */
export function updateArtifact(id: number, body: ArtifactUpdateBody, signal?: AbortSignal): Promise<Artifact> {
  return api().request({
    method: 'PUT',
    path: `/artifacts/${id}`,
    body,
    schema: ArtifactSchema,
    ...withSignal(signal),
  });
}

/** Deletes an artifact. */
export function deleteArtifact(id: number, signal?: AbortSignal): Promise<Artifact> {
  return api().request({ method: 'DELETE', path: `/artifacts/${id}`, schema: ArtifactSchema, ...withSignal(signal) });
}
