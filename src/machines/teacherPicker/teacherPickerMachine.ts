/**
 * The Select Teacher list of Teacher Portfolios (researchers): teachers and PLC leads, shown as
 * 'Last, First' and sorted by that label.
 *
 * loading ─(users)→ ready ─(teacher.select)→ ready (the app puts the teacher in the address)
 *    └─(failed)→ loadFailed ─(retry)→ loading
 *
 * The page reports address changes (Back, a typed URL) with `route.change`.
 */
import { assign, fromPromise, setup } from 'xstate';
import { ROLE_IDS, type User } from '../../schemas/user.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { listUsers } from '../../services/userService.ts';
import { effect } from '../shared/effect.ts';
import { teacherOptions, type TeacherOption } from './selectors.ts';

export interface TeacherPickerInput {
  /** The teacher in the address, if any. */
  teacherId: number | null;
}

export interface TeacherPickerContext {
  teachers: TeacherOption[];
  teacherId: number | null;
  error: UiError | null;
}

export type TeacherPickerEvent =
  | { type: 'teacher.select'; teacherId: number }
  | { type: 'route.change'; teacherId: number | null }
  | { type: 'retry' };

export const teacherPickerMachine = setup({
  types: {
    context: {} as TeacherPickerContext,
    events: {} as TeacherPickerEvent,
    input: {} as TeacherPickerInput,
  },
  actors: {
    listTeachers: fromPromise<User[]>(({ signal }) => listUsers({ role_ne: ROLE_IDS.researcher }, signal)),
  },
  guards: {
    isOtherTeacher: ({ context }, params: { teacherId: number | null }) => params.teacherId !== context.teacherId,
  },
  actions: {
    storeTeachers: assign({ teachers: (_, params: { users: User[] }) => teacherOptions(params.users), error: null }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    chooseTeacher: assign({ teacherId: (_, params: { teacherId: number | null }) => params.teacherId }),
    /** Puts the teacher in the address (provided by the app). */
    showTeacher: effect<{ teacherId: number }>('showTeacher'),
  },
}).createMachine({
  id: 'teacherPicker',
  context: ({ input }) => ({ teachers: [], teacherId: input.teacherId, error: null }),
  initial: 'loading',
  on: {
    'route.change': {
      guard: { type: 'isOtherTeacher', params: ({ event }) => event },
      actions: { type: 'chooseTeacher', params: ({ event }) => event },
    },
  },
  states: {
    loading: {
      invoke: {
        id: 'listTeachers',
        src: 'listTeachers',
        onDone: {
          target: 'ready',
          actions: { type: 'storeTeachers', params: ({ event }) => ({ users: event.output }) },
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: {
      on: { retry: 'loading' },
    },
    ready: {
      on: {
        'teacher.select': {
          guard: { type: 'isOtherTeacher', params: ({ event }) => event },
          actions: [
            { type: 'chooseTeacher', params: ({ event }) => event },
            { type: 'showTeacher', params: ({ event }) => event },
          ],
        },
      },
    },
  },
});

export type TeacherPickerMachine = typeof teacherPickerMachine;
