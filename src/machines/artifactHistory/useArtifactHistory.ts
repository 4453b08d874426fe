import { useActorRef } from '@xstate/react';
import { createContext, useContext, useEffect, useMemo } from 'react';
import type { InspectionEvent } from 'xstate';
import type { VersionDetail, VersionSummary } from '../../schemas/versions.ts';
import type { UiError } from '../../services/errors.ts';
import { useSelector } from '../shared/actorReact.ts';
import {
  artifactHistoryMachine,
  type ArtifactHistoryInput,
  type ArtifactHistoryRef,
  type HistoryErrorOf,
  type HistoryNotice,
  type StoredArtifact,
  type VersionPair,
} from './artifactHistoryMachine.ts';

/** How the history panels make their actors. */
export interface ArtifactHistorySetup {
  logic: typeof artifactHistoryMachine;
  /** An inspector for every actor made from it (tests). */
  inspect?: (event: InspectionEvent) => void;
}

/** Tests provide their own logic; the app uses the machine as it is. */
export const ArtifactHistoryContext = createContext<ArtifactHistorySetup | null>(null);

/**
 * The history of one artifact, living as long as the calling panel; `onChanged` hears of the
 * artifact as stored after a restore (or as found changed when a restore was refused).
 */
export function useArtifactHistoryActor(
  input: ArtifactHistoryInput,
  onChanged: (artifact: StoredArtifact) => void,
): ArtifactHistoryRef {
  const setup = useContext(ArtifactHistoryContext);
  const ref = useActorRef(setup?.logic ?? artifactHistoryMachine, {
    input,
    ...(setup?.inspect ? { inspect: setup.inspect } : {}),
  });
  useEffect(() => {
    const sub = ref.on('artifact.changed', (event) => onChanged(event.artifact));
    return () => sub.unsubscribe();
  }, [ref, onChanged]);
  return ref;
}

export type HistoryStatus = 'loading' | 'failed' | 'ready' | 'reading' | 'loadingMore' | 'confirming' | 'restoring';

/** Where the history stands (`refreshing` after a refused restore counts as restoring). */
export const useHistoryStatus = (ref: ArtifactHistoryRef): HistoryStatus =>
  useSelector(ref, (s) => {
    if (s.matches('refreshing')) return 'restoring';
    return s.value as HistoryStatus;
  });

export interface HistoryView {
  versions: readonly VersionSummary[];
  total: number;
  hasMore: boolean;
  pair: VersionPair | null;
  /** The two versions compared, once read. */
  compared: { older: VersionDetail; newer: VersionDetail } | null;
  restoring: number | null;
  notice: HistoryNotice;
  error: { of: HistoryErrorOf; error: UiError } | null;
}

/** What the panel shows. */
export function useHistoryView(ref: ArtifactHistoryRef): HistoryView {
  const versions = useSelector(ref, (s) => s.context.versions);
  const total = useSelector(ref, (s) => s.context.total);
  const hasMore = useSelector(ref, (s) => s.context.nextBefore !== null);
  const pair = useSelector(ref, (s) => s.context.pair);
  const details = useSelector(ref, (s) => s.context.details);
  const restoring = useSelector(ref, (s) => s.context.restoring);
  const notice = useSelector(ref, (s) => s.context.notice);
  const error = useSelector(ref, (s) => s.context.error);
  const compared = useMemo(() => {
    const older = pair ? details[pair.older] : undefined;
    const newer = pair ? details[pair.newer] : undefined;
    return older && newer ? { older, newer } : null;
  }, [pair, details]);
  return { versions, total, hasMore, pair, compared, restoring, notice, error };
}

/** What the panel may ask. */
export function useHistoryEvents(ref: ArtifactHistoryRef) {
  return useMemo(
    () => ({
      retry: () => ref.send({ type: 'retry' }),
      more: () => ref.send({ type: 'more' }),
      compare: (older: number, newer: number) => ref.send({ type: 'compare.select', older, newer }),
      askRestore: (number: number) => ref.send({ type: 'restore.ask', number }),
      confirmRestore: () => ref.send({ type: 'restore.confirm' }),
      cancelRestore: () => ref.send({ type: 'restore.cancel' }),
    }),
    [ref],
  );
}
