import type { PromiseActorLogic } from 'xstate';
import type { ArchiveJob } from '../../schemas/archive.ts';
import { teacherArchiveMachine } from './teacherArchiveMachine.ts';
import type { Notice } from '../shared/notice.ts';

/** What the archive section needs from outside: how to tell the user things, and (tests) other services. */
export interface TeacherArchiveImplementations {
  /** Shows a message (a toast; errors as alerts). */
  notify: (notice: Notice) => void;
  /** Replacements for the service calls (tests); the real services otherwise. */
  actors?: {
    listArchives?: PromiseActorLogic<ArchiveJob[]>;
    requestArchive?: PromiseActorLogic<ArchiveJob>;
    pollArchives?: PromiseActorLogic<ArchiveJob[], { ms: number }>;
  };
}

/** The archive section's logic with its outward effects supplied. */
export function provideTeacherArchive({ notify, actors = {} }: TeacherArchiveImplementations) {
  return teacherArchiveMachine.provide({ actions: { notify: (_, notice) => notify(notice) }, actors });
}
