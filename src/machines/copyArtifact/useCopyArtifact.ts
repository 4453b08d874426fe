import { createActorContext } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import type { UiError } from '../../services/errors.ts';
import { copyArtifactMachine, type CopyFrom, type CopySource, type NotCopyableReason } from './copyArtifactMachine.ts';

/** The Copy Artifact page's actor; the app provides its logic and the address as input. */
export const CopyArtifactActorContext = createActorContext(copyArtifactMachine);

export type CopyArtifactStatus = 'loading' | 'loadFailed' | 'notFound' | 'notCopyable' | 'noPortfolios' | 'form';

/** Where the page stands (`form`: choosing, copying, failed or copied). */
export function useCopyStatus(): CopyArtifactStatus {
  return CopyArtifactActorContext.useSelector((s) => {
    if (s.hasTag('form')) return 'form';
    for (const state of ['loadFailed', 'notFound', 'notCopyable', 'noPortfolios'] as const) {
      if (s.matches(state)) return state;
    }
    return 'loading';
  });
}

/** Whether the copy comes from a personal artifact or a shared one (shared mode). */
export const useCopyFrom = (): CopyFrom => CopyArtifactActorContext.useSelector((s) => s.context.from);

/** The portfolio and artifact of the address. */
export function useCopyAddress(): { portfolioId: number; artifactId: number } {
  const portfolioId = CopyArtifactActorContext.useSelector((s) => s.context.portfolioId);
  const artifactId = CopyArtifactActorContext.useSelector((s) => s.context.artifactId);
  return useMemo(() => ({ portfolioId, artifactId }), [portfolioId, artifactId]);
}

/** The artifact to copy, once loaded. */
export const useCopySource = (): CopySource | null => CopyArtifactActorContext.useSelector((s) => s.context.source);

/** The shared portfolios the copy may go to. */
export const useCopyTargets = (): readonly SharedPortfolioListItem[] =>
  CopyArtifactActorContext.useSelector((s) => s.context.portfolios);

/** The chosen shared portfolio's id. */
export const useCopyTargetId = (): number | null => CopyArtifactActorContext.useSelector((s) => s.context.targetId);

/** Whether the owner's private notes go with the copy (offered for personal artifacts). */
export const useIncludeNotes = (): boolean => CopyArtifactActorContext.useSelector((s) => s.context.includeNotes);

/** Why a loaded artifact cannot be copied. */
export const useNotCopyableReason = (): NotCopyableReason | null =>
  CopyArtifactActorContext.useSelector((s) => s.context.reason);

/** Why loading or the last copy failed. */
export const useCopyError = (): UiError | null => CopyArtifactActorContext.useSelector((s) => s.context.error);

/** Whether the copy is under way (or done, on the way to the copy's edit page): the form is disabled. */
export const useCopyBusy = (): boolean => CopyArtifactActorContext.useSelector((s) => s.hasTag('busy'));

/** Whether the copy is being made (the progress message shows). */
export const useCopying = (): boolean => CopyArtifactActorContext.useSelector((s) => s.matches('copying'));

/** Whether COMPLETE COPY may be pressed. */
export const useCanCopy = (): boolean => CopyArtifactActorContext.useSelector((s) => s.can({ type: 'copy.submit' }));

/** What the page may ask. */
export function useCopyArtifactEvents() {
  const actor = CopyArtifactActorContext.useActorRef();
  return useMemo(
    () => ({
      select: (sharedPortfolioId: number) => actor.send({ type: 'target.select', sharedPortfolioId }),
      includeNotes: (include: boolean) => actor.send({ type: 'notes.include', include }),
      submit: () => actor.send({ type: 'copy.submit' }),
      cancel: () => actor.send({ type: 'copy.cancel' }),
      retry: () => actor.send({ type: 'retry' }),
    }),
    [actor],
  );
}
