import { useActorRef } from '@xstate/react';
import { useSelector } from '../shared/actorReact.ts';
import { createContext, useContext } from 'react';
import type { InspectionEvent } from 'xstate';
import type { UiError } from '../../services/errors.ts';
import {
  artifactDetailsMachine,
  type ArtifactDetailsMachine,
  type WholeArtifactData,
} from './artifactDetailsMachine.ts';

/** The logic that reads an opened artifact (tests provide a fake fetch, and may inspect it). */
export interface ArtifactDetailsSetup {
  logic: ArtifactDetailsMachine;
  inspect?: (event: InspectionEvent) => void;
}

export const ArtifactDetailsContext = createContext<ArtifactDetailsSetup>({ logic: artifactDetailsMachine });

export interface WholeArtifact {
  status: 'loading' | 'ready' | 'missing' | 'failed';
  artifact: WholeArtifactData | null;
  error: UiError | null;
  retry: () => void;
}

/** The artifact `artifactId`, read whole once per mount (the caller keys it by the artifact's version). */
export function useWholeArtifact(artifactId: number): WholeArtifact {
  const { logic, inspect } = useContext(ArtifactDetailsContext);
  const ref = useActorRef(logic, { input: { artifactId }, ...(inspect ? { inspect } : {}) });
  const status = useSelector(ref, (s): WholeArtifact['status'] =>
    s.matches('ready') ? 'ready' : s.matches('missing') ? 'missing' : s.matches('failed') ? 'failed' : 'loading',
  );
  const artifact = useSelector(ref, (s) => s.context.artifact);
  const error = useSelector(ref, (s) => s.context.error);
  return { status, artifact, error, retry: () => ref.send({ type: 'retry' }) };
}
