import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { Media, MediaKind } from '../../schemas/media.ts';
import type { RememberedUpload } from '../../services/resumableUploads.ts';
import type { UploadRef } from './uploadMachine.ts';
import type { MediaByKind, UploadQueueRef, UploadRow } from './uploadQueueMachine.ts';

/** The artifact's files as the uploads area lists them. */
export function useQueuedMedia(ref: UploadQueueRef): MediaByKind {
  return useSelector(ref, (s) => s.context.media);
}

/** The artifact (personal or shared) whose files these are. */
export function useQueuedArtifact(ref: UploadQueueRef): { kind: 'artifact' | 'sharedArtifact'; artifactId: number } {
  const artifactId = useSelector(ref, (s) => s.context.artifactId);
  const shared = useSelector(ref, (s) => s.context.shared);
  return useMemo(() => ({ kind: shared ? 'sharedArtifact' : 'artifact', artifactId }), [shared, artifactId]);
}

/** The upload rows, in the order the files were chosen. */
export function useUploadRows(ref: UploadQueueRef): readonly UploadRow[] {
  return useSelector(ref, (s) => s.context.rows);
}

/** The file the user asked to remove, while asking and removing. */
export function useRemoval(ref: UploadQueueRef): { target: { kind: MediaKind; media: Media } | null; busy: boolean } {
  const target = useSelector(ref, (s) => (s.matches('idle') ? null : s.context.removal));
  const busy = useSelector(ref, (s) => s.hasTag('busy'));
  return { target, busy };
}

/** Unfinished uploads to this artifact that this browser remembers (offered to resume). */
export function useRememberedUploads(ref: UploadQueueRef): readonly RememberedUpload[] {
  return useSelector(ref, (s) => s.context.remembered);
}

/** What the uploads area may ask. */
export function useUploadQueueEvents(ref: UploadQueueRef) {
  return useMemo(
    () => ({
      addFiles: (files: readonly File[]) => ref.send({ type: 'files.add', files }),
      remove: (kind: MediaKind, fileId: number) => ref.send({ type: 'file.remove', kind, fileId }),
      confirmRemove: () => ref.send({ type: 'file.confirmRemove' }),
      cancelRemove: () => ref.send({ type: 'file.cancelRemove' }),
      forgetRemembered: (key: string) => ref.send({ type: 'remembered.forget', key }),
    }),
    [ref],
  );
}

export type UploadStatus =
  'queued' | 'uploading' | 'offline' | 'paused' | 'done' | 'failed' | 'cancelling' | 'dismissed';

/** One upload row: its file, where it stands, its progress and its failure message. */
export function useUpload(ref: UploadRef): {
  name: string;
  kind: MediaKind;
  status: UploadStatus;
  percent: number;
  /** Bytes the server holds, of `size`. */
  sent: number;
  size: number;
  /** Bytes per second while sending, once measured. */
  rate: number | null;
  /** Seconds still to go at that rate. */
  secondsLeft: number | null;
  /** The connection broke off: trying again (by itself). */
  reconnecting: boolean;
  error: string | null;
  /** Retry is offered: trying again may succeed. */
  canRetry: boolean;
  canPause: boolean;
  canResume: boolean;
} {
  const name = useSelector(ref, (s) => s.context.file.name);
  const size = useSelector(ref, (s) => s.context.file.size);
  const kind = useSelector(ref, (s) => s.context.kind);
  const status = useSelector(ref, (s) => s.value as UploadStatus);
  const percent = useSelector(ref, (s) => Math.floor(s.context.progress * 100));
  const sent = useSelector(ref, (s) => s.context.sent);
  const rate = useSelector(ref, (s) => (s.matches('uploading') ? s.context.rate : null));
  const reconnecting = useSelector(ref, (s) => s.context.reconnecting);
  const error = useSelector(ref, (s) => s.context.error);
  const canRetry = useSelector(ref, (s) => s.can({ type: 'upload.retry' }));
  const canPause = useSelector(ref, (s) => s.can({ type: 'upload.pause' }));
  const canResume = useSelector(ref, (s) => s.can({ type: 'upload.resume' }));
  const secondsLeft = rate && rate > 0 ? (size - sent) / rate : null;
  return {
    name,
    kind,
    status,
    percent,
    sent,
    size,
    rate,
    secondsLeft,
    reconnecting,
    error,
    canRetry,
    canPause,
    canResume,
  };
}

/** What an upload row may ask. */
export function useUploadEvents(ref: UploadRef) {
  return useMemo(
    () => ({
      pause: () => ref.send({ type: 'upload.pause' }),
      resume: () => ref.send({ type: 'upload.resume' }),
      retry: () => ref.send({ type: 'upload.retry' }),
      dismiss: () => ref.send({ type: 'upload.dismiss' }),
    }),
    [ref],
  );
}
