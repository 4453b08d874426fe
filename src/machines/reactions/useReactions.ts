import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import { REACTIONS, type ReactionValue } from '../../schemas/catalog.ts';
import type { Reaction } from '../../schemas/sharedArtifact.ts';
import { ownReaction } from '../sharedArtifactDiscussion/discussionSelectors.ts';
import type { reactionsMachine } from './reactionsMachine.ts';

export type ReactionsRef = ActorRefFrom<typeof reactionsMachine>;

/** One reaction as the bar shows it. */
export interface ReactionTally {
  value: ReactionValue;
  meaning: string;
  /** How many people reacted so. */
  count: number;
  /** Whether one of them is the viewer. */
  mine: boolean;
}

/**
 * The four reactions on the whole artifact in catalogue order, with their counts and whether the
 * viewer is among them (reactions at a moment of a video are markers on its timeline).
 */
export function tallyReactions(reactions: readonly Reaction[], viewerId: number | null): ReactionTally[] {
  return REACTIONS.map((r) => ({
    value: r.value,
    meaning: r.meaning,
    count: reactions.filter((x) => x.value === r.value && x.moment === null).length,
    mine: ownReaction(reactions, viewerId, r.value) !== undefined,
  }));
}

/** Whether the viewer may toggle reactions at all (a member or researcher). */
export const useCanReact = (ref: ReactionsRef): boolean =>
  useSelector(ref, (s) => s.context.mutable && s.context.viewerId !== null);

/** The reaction being added or removed (`null`: none, or no bar yet). */
export const usePendingReaction = (ref: ReactionsRef | undefined): ReactionValue | null =>
  useSelector(ref, (s) => (s?.hasTag('busy') ? s.context.pending : null));

/** What the reactions bar may ask. */
export function useReactionsEvents(ref: ReactionsRef) {
  return useMemo(
    () => ({
      toggle: (value: ReactionValue) => ref.send({ type: 'reaction.toggle', value }),
    }),
    [ref],
  );
}
