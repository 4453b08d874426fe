/**
 * The edit page's vocabulary: its messages, input, context and events, and the small rules the
 * chart in `artifactLifecycleMachine.ts` calls by name.
 */
import type { ActorRefFrom } from 'xstate';
import type { ArtifactUpdateBody } from '../../schemas/artifact.ts';
import type { Responses } from '../../schemas/structure.ts';
import type { UiError } from '../../services/errors.ts';
import type { uploadQueueMachine } from '../upload/uploadQueueMachine.ts';
import type { ArtifactKind, EditableArtifact } from './artifactSelectors.ts';
import type { Draft, DraftValue } from './draft.ts';

/** The toast after a successful save (spec §8). */
export const SAVED_MESSAGE = 'Successfully edited artifact';
/** The toast after a successful save of a shared artifact (spec §8). */
export const SHARED_SAVED_MESSAGE = 'Successfully edited shared artifact';
/** How long 'Successfully edited artifact' shows before the artifact view opens (spec §9). */
export const REDIRECT_DELAY_MS = 2000;

export const PORTFOLIO_NOT_FOUND = 'Portfolio not found.';
export const ARTIFACT_NOT_FOUND = 'Artifact not found.';
/** What the page says of a shared artifact it cannot edit (missing, elsewhere, or not the user's team's). */
export const SHARED_ARTIFACT_NOT_FOUND = 'Shared artifact not found.';

/** Which button saved: 'Save to Parking Lot', 'Submit to Portfolio' or 'Save'. */
export type SaveIntent = 'saveToLot' | 'submit' | 'save';

export interface ArtifactLifecycleInput {
  kind: ArtifactKind;
  /** The portfolio, or for a shared artifact the shared portfolio. */
  portfolioId: number;
  artifactId: number;
  /** Researchers read teacher portfolios but never edit them (they do edit shared artifacts). */
  readOnly: boolean;
}

export interface ArtifactLifecycleContext extends ArtifactLifecycleInput {
  artifact: EditableArtifact | null;
  /** The answers as the form holds them (numbers as typed). */
  draft: Draft;
  /** The first problem of each question, by key. */
  issues: Record<string, string>;
  /** The cleaned responses that will be sent. */
  responses: Responses;
  intent: SaveIntent | null;
  error: UiError | null;
  notFoundMessage: string | null;
  uploads: ActorRefFrom<typeof uploadQueueMachine> | null;
  /** How the page is being left: Cancel (the app then shows the portfolio) or a navigation. */
  leaveBy: 'cancel' | 'navigation';
}

export type ArtifactLifecycleEvent =
  | { type: 'field.change'; key: string; value: DraftValue }
  | { type: 'artifact.saveToLot' }
  | { type: 'artifact.submit' }
  | { type: 'artifact.save' }
  /** The artifact was deleted (from this page); the app leaves shortly. */
  | { type: 'artifact.deleted' }
  /** Cancel: leave without saving (a never-saved artifact is removed). */
  | { type: 'artifact.cancel' }
  /** The user is about to leave the page (a link, Back): the machine allows it or asks first. */
  | { type: 'leave.request' }
  | { type: 'leave.confirm' }
  | { type: 'leave.stay' }
  | { type: 'retry' };

/** Whether an id from the address can name a row (a positive whole number). */
export const isId = (n: number): boolean => Number.isInteger(n) && n > 0;

/** Why the page shows no artifact: shared artifacts always say so the same way; personal ones say what the server said. */
export function notFoundText(kind: ArtifactKind, serverMessage: string = ARTIFACT_NOT_FOUND): string {
  return kind === 'shared' ? SHARED_ARTIFACT_NOT_FOUND : serverMessage;
}

/** The toast after a successful save of an artifact of this kind. */
export const savedMessage = (kind: ArtifactKind): string => (kind === 'shared' ? SHARED_SAVED_MESSAGE : SAVED_MESSAGE);

/** The body of the PUT for an intent: only 'Save to Parking Lot' keeps the artifact in the lot. */
export function saveBody(intent: SaveIntent, responses: Responses): ArtifactUpdateBody {
  return { responses, parkingLot: intent === 'saveToLot' };
}
