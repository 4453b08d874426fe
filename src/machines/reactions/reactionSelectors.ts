import type { Reaction } from '../../schemas/sharedArtifact.ts';

/**
 * The viewer's own reaction of this value on the whole artifact (not at a moment of a video), if
 * any. Apart from the machine, so that the views' hooks load without it.
 */
export function ownReaction(
  reactions: readonly Reaction[],
  viewerId: number | null,
  value: string,
): Reaction | undefined {
  return viewerId === null
    ? undefined
    : reactions.find((r) => r.value === value && r.owner.id === viewerId && r.moment === null);
}
