import { csvDate } from '../export/csv.ts';

/** What the shared-artifact answers say. */
export const SHARED_ARTIFACT_MESSAGES = {
  invalidUpdatedAt: 'Invalid updated_at parameter.',
  safe: 'Shared artifact can be safely saved.',
  savedBySomeoneElse: (when: Date) => `This artifact has recently been saved by someone else at ${csvDate(when)}.`,
  notSeen:
    'This artifact may have changed since you opened it. Open it again to see the latest version, then save your changes.',
  hasActivity: 'You cannot delete a shared artifact with comments or reactions.',
  parkingLot: 'Only completed artifacts can be copied. Submit the artifact to its portfolio first.',
  hasMoments: 'This video has comments or reactions at its moments, so it cannot be removed.',
  locked: (who: string, until: Date) =>
    `This artifact is being edited by ${who}. They have exclusive access until ${csvDate(until)}.`,
  lockRest: (after: Date) =>
    `You have kept this artifact locked for an hour, so others may edit it now. You can lock it again after ${csvDate(after)}.`,
  unlockFailed: (until: Date) =>
    `There was a problem releasing the lock. This artifact can be edited after ${csvDate(until)}.`,
} as const;

/** Reads `updated_at` as the clients send it: an ISO date, or milliseconds since 1970 (mobile). */
export function parseUpdatedAt(value: string | undefined): Date | null {
  if (!value) return null;
  const text = value.trim();
  const asDate = /^\d+$/.test(text) ? new Date(Number(text)) : new Date(text);
  return Number.isNaN(asDate.getTime()) ? null : asDate;
}
