import { createActorContext } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { UiError } from '../../services/errors.ts';
import type { TeacherOption } from './selectors.ts';
import { teacherPickerMachine } from './teacherPickerMachine.ts';

/** The picker's actor; the app provides `showTeacher` and the teacher in the address as input. */
export const TeacherPickerActorContext = createActorContext(teacherPickerMachine);

export type TeacherPickerStatus = 'loading' | 'loadFailed' | 'ready';

/** Where the list stands. */
export function useTeacherPickerStatus(): TeacherPickerStatus {
  return TeacherPickerActorContext.useSelector((s) =>
    s.matches('ready') ? 'ready' : s.matches('loadFailed') ? 'loadFailed' : 'loading',
  );
}

/** The teachers, by 'Last, First'. */
export const useTeachers = (): readonly TeacherOption[] =>
  TeacherPickerActorContext.useSelector((s) => s.context.teachers);

/** The chosen teacher's id. */
export const useSelectedTeacherId = (): number | null =>
  TeacherPickerActorContext.useSelector((s) => s.context.teacherId);

/** Why the list could not be loaded. */
export const useTeacherPickerError = (): UiError | null =>
  TeacherPickerActorContext.useSelector((s) => s.context.error);

/** What the page may ask of the picker. */
export function useTeacherPickerEvents() {
  const actor = TeacherPickerActorContext.useActorRef();
  return useMemo(
    () => ({
      select: (teacherId: number) => actor.send({ type: 'teacher.select', teacherId }),
      routeChanged: (teacherId: number | null) => actor.send({ type: 'route.change', teacherId }),
      retry: () => actor.send({ type: 'retry' }),
    }),
    [actor],
  );
}
