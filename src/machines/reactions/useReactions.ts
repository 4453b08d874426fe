import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext, useEffect, useMemo } from 'react';
import type { ActorOptions, ActorRefFrom, AnyActorLogic, InspectionEvent } from 'xstate';
import { REACTIONS, type ReactionValue } from '../../schemas/catalog.ts';
import type { Reaction } from '../../schemas/sharedArtifact.ts';
import type { UiError } from '../../services/errors.ts';
import { ownReaction } from './reactionSelectors.ts';
import type { reactionsMachine, ReactionsInput } from './reactionsMachine.ts';

export type ReactionsRef = ActorRefFrom<typeof reactionsMachine>;

/** The reactions logic with the app's messages. */
export interface ReactionsSetup {
  logic: typeof reactionsMachine;
  /** An inspector for every actor made from it (tests). */
  inspect?: (event: InspectionEvent) => void;
  /** The clock of its timers (tests drive it by hand). */
  clock?: NonNullable<ActorOptions<AnyActorLogic>['clock']>;
}

/** Supplies the reactions logic to shared artifact views below it. */
export const ReactionsContext = createContext<ReactionsSetup | null>(null);

/** The reactions of one shared artifact, living as long as the calling component; `onChanged` hears of each change. */
export function useReactionsActor(input: ReactionsInput, onChanged?: () => void): ReactionsRef {
  const setup = useContext(ReactionsContext);
  if (!setup) throw new Error('Reactions need ReactionsContext (the app wiring of shared portfolios) above them.');
  const ref = useActorRef(setup.logic, {
    input,
    ...(setup.inspect ? { inspect: setup.inspect } : {}),
    ...(setup.clock ? { clock: setup.clock } : {}),
  });
  useEffect(() => {
    if (!onChanged) return undefined;
    const subscription = ref.on('reactions.changed', () => onChanged());
    return () => subscription.unsubscribe();
  }, [ref, onChanged]);
  return ref;
}

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

export type ReactionsStatus = 'loading' | 'loadFailed' | 'ready';

/** Whether the reactions are there. */
export const useReactionsStatus = (ref: ReactionsRef): ReactionsStatus =>
  useSelector(ref, (s) => (s.matches('loading') ? 'loading' : s.matches('loadFailed') ? 'loadFailed' : 'ready'));

const NONE: readonly Reaction[] = [];

/** The artifact's reactions (none before they are loaded). */
export const useReactionList = (ref: ReactionsRef): readonly Reaction[] =>
  useSelector(ref, (s) => (s.matches('ready') ? s.context.reactions : NONE));

/** The four reactions with counts and the viewer's own marked. */
export function useReactionTallies(ref: ReactionsRef): ReactionTally[] {
  const reactions = useReactionList(ref);
  const viewerId = useSelector(ref, (s) => s.context.viewerId);
  return useMemo(() => tallyReactions(reactions, viewerId), [reactions, viewerId]);
}

/** Whether the viewer may toggle reactions at all (a member or researcher). */
export const useCanReact = (ref: ReactionsRef): boolean =>
  useSelector(ref, (s) => s.context.mutable && s.context.viewerId !== null);

/** The reaction being added or removed (`null`: none). */
export const usePendingReaction = (ref: ReactionsRef): ReactionValue | null =>
  useSelector(ref, (s) => (s.hasTag('busy') ? s.context.pending : null));

/** Whether the reactions are about to be fetched again, or are being fetched (after a change). */
export const useReactionsSyncing = (ref: ReactionsRef): boolean =>
  useSelector(ref, (s) => s.matches({ ready: { sync: 'scheduled' } }) || s.matches({ ready: { sync: 'refetching' } }));

/** Why the reactions could not be loaded. */
export const useReactionsError = (ref: ReactionsRef): UiError | null => useSelector(ref, (s) => s.context.error);

/** What the reactions bar may ask. */
export function useReactionsEvents(ref: ReactionsRef) {
  return useMemo(
    () => ({
      toggle: (value: ReactionValue) => ref.send({ type: 'reaction.toggle', value }),
      retry: () => ref.send({ type: 'retry' }),
    }),
    [ref],
  );
}
