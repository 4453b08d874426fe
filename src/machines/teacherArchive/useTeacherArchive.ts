import { createActorContext } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ArchiveJob } from '../../schemas/archive.ts';
import { archiveDownloadUrl } from '../../services/archiveService.ts';
import type { UiError } from '../../services/errors.ts';
import { activeJob, teacherArchiveMachine } from './teacherArchiveMachine.ts';

/** The section's actor; the app provides its logic (`provideTeacherArchive`). */
export const TeacherArchiveActorContext = createActorContext(teacherArchiveMachine);

export type TeacherArchiveStatus = 'loading' | 'loadFailed' | 'ready' | 'requesting' | 'watching' | 'pollFailed';

/** Where the section stands. */
export function useTeacherArchiveStatus(): TeacherArchiveStatus {
  return TeacherArchiveActorContext.useSelector((s) => {
    for (const status of ['loadFailed', 'ready', 'requesting', 'watching', 'pollFailed'] as const)
      if (s.matches(status)) return status;
    return 'loading';
  });
}

/** An archive as the section lists it. */
export interface ArchiveRow extends ArchiveJob {
  /** Where a ready archive downloads from (`null` until ready). */
  downloadUrl: string | null;
}

const rowsOf = (archives: readonly ArchiveJob[]): ArchiveRow[] =>
  archives.map((a) => ({ ...a, downloadUrl: a.status === 'ready' ? archiveDownloadUrl(a.id) : null }));

/** Her archives, newest first. */
export function useArchiveRows(): readonly ArchiveRow[] {
  const archives = TeacherArchiveActorContext.useSelector((s) => s.context.archives);
  return useMemo(() => rowsOf(archives), [archives]);
}

/** The archive being prepared, if any. */
export function useActiveArchive(): ArchiveJob | null {
  return TeacherArchiveActorContext.useSelector((s) => activeJob(s.context.archives));
}

/** Why the list could not be loaded or checked. */
export function useArchiveError(): UiError | null {
  return TeacherArchiveActorContext.useSelector((s) => s.context.error);
}

/** Why the last request was refused. */
export function useArchiveRequestError(): UiError | null {
  return TeacherArchiveActorContext.useSelector((s) => s.context.requestError);
}

/** Whether she may ask for an archive now. */
export function useCanRequestArchive(): boolean {
  return TeacherArchiveActorContext.useSelector((s) => s.can({ type: 'archive.request' }));
}

/** What the section may ask. */
export function useTeacherArchiveEvents() {
  const ref = TeacherArchiveActorContext.useActorRef();
  return useMemo(
    () => ({
      request: () => ref.send({ type: 'archive.request' }),
      retry: () => ref.send({ type: 'archive.retry' }),
    }),
    [ref],
  );
}
