import { useActorRef } from '@xstate/react';
import { useSelector } from '../shared/actorReact.ts';
import { createContext, useContext, useMemo } from 'react';
import type { ArtifactShare } from '../../schemas/notifications.ts';
import type { InspectionEvent } from 'xstate';
import type { UiError } from '../../services/errors.ts';
import { artifactSharesMachine, type ArtifactSharesRef } from './artifactSharesMachine.ts';

/** How the "Shared to" sections below make their actors. */
export interface ArtifactSharesSetup {
  logic: typeof artifactSharesMachine;
  /** An inspector for every actor made from it (tests). */
  inspect?: (event: InspectionEvent) => void;
}

/** The app's portfolio pages offer the section with the machine as it is. */
export const ARTIFACT_SHARES: ArtifactSharesSetup = { logic: artifactSharesMachine };

/** Provided by the app's portfolio pages (`null`: no "Shared to" section). */
export const ArtifactSharesContext = createContext<ArtifactSharesSetup | null>(null);

/** Whether the portfolio pages above offer the "Shared to" section. */
export const useArtifactSharesAvailable = (): boolean => useContext(ArtifactSharesContext) !== null;

/** The section's actor for one artifact (a new one when the artifact changes). */
export function useArtifactSharesActor(artifactId: number): ArtifactSharesRef {
  const setup = useContext(ArtifactSharesContext);
  if (!setup) throw new Error('useArtifactSharesActor needs ArtifactSharesContext above it.');
  return useActorRef(setup.logic, { input: { artifactId }, ...(setup.inspect ? { inspect: setup.inspect } : {}) });
}

export type ArtifactSharesStatus = 'loading' | 'loaded' | 'failed';

/** Where the section stands. */
export const useArtifactSharesStatus = (ref: ArtifactSharesRef): ArtifactSharesStatus =>
  useSelector(ref, (s) => (s.matches('loaded') ? 'loaded' : s.matches('failed') ? 'failed' : 'loading'));

/** The copies, once loaded. */
export const useShares = (ref: ArtifactSharesRef): readonly ArtifactShare[] =>
  useSelector(ref, (s) => s.context.shares);

/** Why they could not be loaded. */
export const useArtifactSharesError = (ref: ArtifactSharesRef): UiError | null =>
  useSelector(ref, (s) => s.context.error);

/** What the section may ask. */
export function useArtifactSharesEvents(ref: ArtifactSharesRef) {
  return useMemo(() => ({ retry: () => ref.send({ type: 'retry' }) }), [ref]);
}
