import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  teacherPickerMachine,
  type TeacherPickerContext,
  type TeacherPickerEvent,
} from '../../src/machines/teacherPicker/teacherPickerMachine.ts';
import type { User } from '../../src/schemas/user.ts';
import { NetworkError } from '../../src/services/errors.ts';
import {
  answeringBrowserActors,
  makeAccount,
  makePortfolio,
  renderTeacherPortfolios,
} from '../../src/test/portfolioHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { coverageInspector, createPathModel } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(teacherPickerMachine);
afterEach(clearToasts);

const USERS: User[] = [
  makeAccount(7, 'Tess Teacher'),
  makeAccount(8, 'Lee Lead', 'plcLead'),
  makeAccount(9, 'Theo Teacher'),
];
const LABELS = ['Select a teacher', 'Lead, Lee', 'Teacher, Tess', 'Teacher, Theo'];
const offline = new NetworkError();
const tessPortfolio = makePortfolio({ id: 12, name: 'Forces and Motion' });

interface Snapshot {
  context: TeacherPickerContext;
  matches: (value: string) => boolean;
  can: (event: TeacherPickerEvent) => boolean;
}

const actorEvent = (type: string, payload: Record<string, unknown>) =>
  ({ type, ...payload }) as unknown as TeacherPickerEvent;

function events(snapshot: unknown): TeacherPickerEvent[] {
  const s = snapshot as Snapshot;
  const list: TeacherPickerEvent[] = [];
  if (s.matches('loading'))
    list.push(
      actorEvent('xstate.done.actor.listTeachers', { output: USERS }),
      actorEvent('xstate.error.actor.listTeachers', { error: offline }),
    );
  if (s.matches('loadFailed')) list.push({ type: 'retry' });
  if (s.context.teacherId === null)
    list.push({ type: 'teacher.select', teacherId: 7 }, { type: 'route.change', teacherId: 7 });
  return list.filter((event) => s.can(event));
}

function setup() {
  const listTeachers = controllableActor<User[]>();
  const rendered = renderTeacherPortfolios({
    actors: { ...answeringBrowserActors([tessPortfolio]), listTeachers: listTeachers.logic },
    inspect: coverageInspector,
  });
  return { ...rendered, listTeachers };
}

const teacherSelect = () => screen.getByRole('combobox', { name: 'Select Teacher' }) as HTMLSelectElement;

/** What a user sees of the teacher picker and what follows it. */
interface PickerView {
  where: string | undefined;
  enabled: boolean;
  options: (string | null)[];
  selected: string;
  problem: string | null;
  portfolioOptions: (string | null)[] | null;
}

/** The view a state of the picker must produce. */
function expectedView(s: Snapshot): PickerView {
  const { teacherId } = s.context;
  const ready = s.matches('ready');
  return {
    where: teacherId === null ? '/teacher-portfolios' : `/teacher-portfolios?teacher=${teacherId}`,
    enabled: ready,
    options: ready ? LABELS : s.matches('loading') ? ['Loading teachers…'] : ['Select a teacher'],
    selected: ready && teacherId !== null ? String(teacherId) : '',
    problem: s.matches('loadFailed') ? 'The teachers could not be loaded' : null,
    // Once a teacher is chosen, their portfolios can be chosen.
    portfolioOptions: teacherId === null ? null : ['Select a portfolio', 'Forces and Motion'],
  };
}

/** The view on screen. */
function observedView(where: string | undefined): PickerView {
  const problem = screen.queryAllByRole('alert')[0];
  const portfolios = screen.queryByRole('combobox', { name: 'Select Portfolio' }) as HTMLSelectElement | null;
  return {
    where,
    enabled: !teacherSelect().disabled,
    options: [...teacherSelect().options].map((o) => o.textContent),
    selected: teacherSelect().value,
    problem: problem?.querySelector('h2')?.textContent ?? null,
    portfolioOptions: portfolios ? [...portfolios.options].map((o) => o.textContent) : null,
  };
}

describe('teacherPicker model (Teacher Portfolios)', () => {
  const model = createPathModel(teacherPickerMachine, { input: { teacherId: null }, events });
  const paths = model.getShortestPaths();
  it('has paths to every state', () => {
    expect(paths.length).toBeGreaterThan(3);
  });
  for (const path of paths) {
    it(`reaches ${JSON.stringify(path.state.value)}: ${path.steps.map((step) => step.event.type).join(' → ')}`, async () => {
      const h = setup();
      let checked = 0;
      await path.test({
        states: {
          '*': async (state) => {
            const expected = expectedView(state as unknown as Snapshot);
            await waitFor(() => expect(observedView(h.location.history.at(-1))).toEqual(expected));
            checked += 1;
          },
        },
        events: {
          'xstate.done.actor.listTeachers': async () => {
            await act(async () => h.listTeachers.next().deferred.resolve(USERS));
          },
          'xstate.error.actor.listTeachers': async () => {
            await act(async () => h.listTeachers.next().deferred.reject(offline));
          },
          retry: async () => {
            await h.ux.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
          },
          'teacher.select': async () => {
            await h.ux.selectOptions(teacherSelect(), 'Teacher, Tess');
          },
          'route.change': async () => {
            // Back or a link to a teacher's page.
            act(() => h.location.navigate('/teacher-portfolios?teacher=7'));
          },
        },
      });
      expect(checked).toBe(path.steps.length);
    });
  }
});
