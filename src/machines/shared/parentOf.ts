import { createEmptyActor, type AnyActorRef } from 'xstate';

/** Where an actor without a parent reports to: nowhere (a machine walked alone, as path models and unit tests do). */
const NOWHERE: AnyActorRef = createEmptyActor();

/**
 * The target of a child's reports: the actor that spawned it, or nowhere when it runs alone
 * (`sendParent` would throw there). Use as `sendTo(parentOf, …)`.
 */
export const parentOf = ({ self }: { self: AnyActorRef }): AnyActorRef =>
  // xstate's own name for the parent of an actor (what `sendParent` sends to).
  // oxlint-disable-next-line no-underscore-dangle
  self._parent ?? NOWHERE;
