/**
 * The outward parts of an upload, as actors the upload machine invokes (tests provide fakes):
 * `transfer` sends the file with tus and reports back, `watchConnection` says when to try again
 * after the connection was lost, `terminate` cancels an upload on the server.
 */
import { fromCallback, fromPromise, type CallbackActorLogic, type EventObject } from 'xstate';
import type { MediaKind } from '../../schemas/media.ts';
import { cancelUpload, startTransfer, type TransferTarget } from '../../services/resumableUploads.ts';

/** What the `transfer` actor is given. */
export interface TransferInput extends TransferTarget {
  file: File;
  kind: MediaKind;
}

/** What the `transfer` actor reports (the time of a progress report makes the speed). */
export type TransferReport =
  | { type: 'transfer.url'; uploadUrl: string }
  | { type: 'transfer.progress'; sent: number; total: number; at: number }
  | { type: 'transfer.retrying' }
  | { type: 'transfer.stored'; answer: unknown }
  | { type: 'transfer.failed'; error: unknown };

/** Sends the file; stopping the actor pauses the upload (the server keeps it, and so does this browser). */
export const transferLogic: CallbackActorLogic<EventObject, TransferInput> = fromCallback<EventObject, TransferInput>(
  ({ input, sendBack }) => {
    const report = (event: TransferReport) => sendBack(event);
    const transfer = startTransfer(input, {
      onUrl: (uploadUrl) => report({ type: 'transfer.url', uploadUrl }),
      onProgress: (sent, total) => report({ type: 'transfer.progress', sent, total, at: Date.now() }),
      onRetrying: () => report({ type: 'transfer.retrying' }),
      onStored: (answer) => report({ type: 'transfer.stored', answer }),
      onFailed: (error) => report({ type: 'transfer.failed', error }),
    });
    return () => transfer.pause();
  },
);

/** How often to try again while the connection is lost (besides at once when the browser is back online). */
export const RECONNECT_MS = 3000;

/** Says `connection.back` when the browser is online again, or after a while (the drop may have been the server's). */
export const watchConnectionLogic: CallbackActorLogic<EventObject> = fromCallback<EventObject>(({ sendBack }) => {
  const back = () => sendBack({ type: 'connection.back' });
  const timer = setTimeout(back, RECONNECT_MS);
  window.addEventListener('online', back);
  return () => {
    clearTimeout(timer);
    window.removeEventListener('online', back);
  };
});

/** Cancels the upload on the server (tus termination) and forgets it here. */
export const terminateLogic = fromPromise<void, { uploadUrl: string }>(({ input }) => cancelUpload(input.uploadUrl));
