import { useActorRef } from '@xstate/react';
import { useSelector } from '../shared/actorReact.ts';
import { createContext, useContext, useEffect, useMemo } from 'react';
import type { ActorRefFrom, InspectionEvent } from 'xstate';
import type { Comment, Reaction, SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import type { UiError } from '../../services/errors.ts';
import type { CommentRef } from '../comment/useComment.ts';
import type { ReactionsRef } from '../reactions/useReactions.ts';
import type { DiscussionChange } from './discussionSelectors.ts';
import type {
  DiscussionInput,
  MomentPostedEvent,
  sharedArtifactDiscussionMachine,
} from './sharedArtifactDiscussionMachine.ts';

export type DiscussionRef = ActorRefFrom<typeof sharedArtifactDiscussionMachine>;

/** The discussion logic with the app's messages. */
export interface DiscussionSetup {
  logic: typeof sharedArtifactDiscussionMachine;
  /** An inspector for every actor made from it (tests). */
  inspect?: (event: InspectionEvent) => void;
}

/** Supplies the discussion logic to shared artifact views below it. */
export const SharedDiscussionContext = createContext<DiscussionSetup | null>(null);

/**
 * The discussion of one shared artifact, living as long as the calling component: `onChanged`
 * hears of each change the viewer made (with what the portfolio's row becomes), `onDeleteAsked`
 * of the viewer asking to delete the artifact while it may be deleted.
 */
export function useDiscussionActor(
  input: DiscussionInput,
  listeners: { onChanged?: (change: DiscussionChange) => void; onDeleteAsked?: () => void } = {},
): DiscussionRef {
  const setup = useContext(SharedDiscussionContext);
  if (!setup) throw new Error('Discussions need SharedDiscussionContext (the app wiring of shared portfolios) above.');
  const ref = useActorRef(setup.logic, {
    input,
    ...(setup.inspect ? { inspect: setup.inspect } : {}),
  });
  const { onChanged, onDeleteAsked } = listeners;
  useEffect(() => {
    const changed = ref.on('discussion.changed', (event) => onChanged?.(event.change));
    const asked = ref.on('artifact.deleteAsked', () => onDeleteAsked?.());
    return () => {
      changed.unsubscribe();
      asked.unsubscribe();
    };
  }, [ref, onChanged, onDeleteAsked]);
  return ref;
}

export type DiscussionStatus = 'loading' | 'loadFailed' | 'ready';

/** Whether the artifact's comments and reactions are there. */
export const useDiscussionStatus = (ref: DiscussionRef): DiscussionStatus =>
  useSelector(ref, (s) => (s.matches('loading') ? 'loading' : s.matches('loadFailed') ? 'loadFailed' : 'ready'));

/** The artifact whole, as loaded with its discussion (`null` until then). */
export const useDiscussionArtifact = (ref: DiscussionRef): SharedArtifactDetail | null =>
  useSelector(ref, (s) => s.context.artifact);

/** Why the artifact could not be loaded. */
export const useDiscussionError = (ref: DiscussionRef): UiError | null => useSelector(ref, (s) => s.context.error);

/** The artifact's comments now (none before they are loaded). */
export const useDiscussionComments = (ref: DiscussionRef): readonly Comment[] =>
  useSelector(ref, (s) => s.context.comments);

/** The artifact's reactions now (none before they are loaded). */
export const useDiscussionReactions = (ref: DiscussionRef): readonly Reaction[] =>
  useSelector(ref, (s) => s.context.reactions);

/** Who is reading. */
export const useDiscussionViewer = (ref: DiscussionRef): number | null => useSelector(ref, (s) => s.context.viewerId);

/** The comment thread (once the artifact is loaded). */
export const useThreadRef = (ref: DiscussionRef): CommentRef | undefined =>
  useSelector(ref, (s) => s.children.thread as CommentRef | undefined);

/** The reactions bar (once the artifact is loaded). */
export const useReactionsBarRef = (ref: DiscussionRef): ReactionsRef | undefined =>
  useSelector(ref, (s) => s.children.reactionsBar as ReactionsRef | undefined);

/** Whether the artifact may be deleted now (the server allows it, and nobody commented or reacted). */
export const useMayBeDeleted = (ref: DiscussionRef): boolean =>
  useSelector(ref, (s) => s.can({ type: 'artifact.delete' }));

/** What the views may ask of the discussion. */
export function useDiscussionEvents(ref: DiscussionRef) {
  return useMemo(
    () => ({
      retry: () => ref.send({ type: 'retry' }),
      askDelete: () => ref.send({ type: 'artifact.delete' }),
      /** A comment or reaction the moment composer saved (a note is not the discussion's). */
      momentPosted: (posted: Omit<MomentPostedEvent, 'type'> | { kind: 'note' }) => {
        if (posted.kind !== 'note') ref.send({ type: 'moment.posted', ...posted } as MomentPostedEvent);
      },
    }),
    [ref],
  );
}
