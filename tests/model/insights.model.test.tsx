import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  insightsMachine,
  type ChartFileRequest,
  type InsightsContext,
  type InsightsEvent,
} from '../../src/machines/insights/insightsMachine.ts';
import { InsightsActorContext } from '../../src/machines/insights/useInsights.ts';
import { rowText, tableOf } from '../../src/machines/insights/selectors.ts';
import type { Insights } from '../../src/schemas/insights.ts';
import { RANGE_ORDER_MESSAGE } from '../../src/schemas/researchExport.ts';
import { NetworkError } from '../../src/services/errors.ts';
import type { InsightsFilters } from '../../src/services/insightsService.ts';
import { makeAccount } from '../../src/test/portfolioHarness.tsx';
import { INSIGHTS_DENIED_MESSAGE, InsightsPage } from '../../src/views/pages/InsightsPage.tsx';
import { coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(insightsMachine);

const researcher = makeAccount(4, 'Rita Researcher', 'researcher');
const teacher = makeAccount(7, 'Tess Teacher');
const offline = new NetworkError();
const criterion = { id: 5, code: 'SEP2', label: 'Developing and using models', rubric: 'NGSS practices', version: 1 };
const DATA: Insights = {
  scope: 'installation',
  portfolios: [{ id: 31, name: 'Grade 5 PLC' }],
  activity: [
    { week: '2026-03-02', artifacts: 2, comments: 5, reactions: 1, scores: 4 },
    { week: '2026-03-09', artifacts: 0, comments: 3, reactions: 2, scores: 0 },
  ],
  discussion: [{ id: 31, name: 'Grade 5 PLC', artifacts: 2, comments: 8, reactions: 3 }],
  discussionMore: 0,
  levels: [
    {
      criterion,
      levels: [
        { id: 51, label: 'Beginning', score: 1, count: 1 },
        { id: 52, label: 'Proficient', score: 3, count: 3 },
      ],
    },
  ],
  agreement: [{ criterion, pairs: 10, observed: 0.7, expected: 0.5, kappa: 0.4 }],
};
const SAVED = 'activity-per-week.csv';
const REVERSED = { from: '2026-03-10', to: '2026-03-01' };
const FIXED = { to: '2026-03-20' };

interface Snapshot {
  context: InsightsContext;
  matches: (value: unknown) => boolean;
}

const actorEvent = (type: string, payload: Record<string, unknown>) =>
  ({ type, ...payload }) as unknown as InsightsEvent;
const same = (a: InsightsFilters, b: InsightsFilters) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The user enters a reversed range and is told, fixes it and applies it; then shows the activity
 * table, points at the discussion's bar and downloads the activity data (in that order, so that
 * the paths stay few); retries after a failure.
 */
const userEvents = (snapshot: unknown): InsightsEvent[] => {
  const { context: c } = snapshot as Snapshot;
  const list: InsightsEvent[] = [{ type: 'retry' }];
  const applied = c.applied.to === FIXED.to && same(c.draft, c.applied);
  if (c.draft.from === '') list.push({ type: 'filters.change', patch: REVERSED });
  if (c.problem !== null) list.push({ type: 'filters.change', patch: FIXED });
  if (!same(c.draft, c.applied) && c.problem === null) list.push({ type: 'filters.apply' });
  if (applied && c.views.activity === 'chart') list.push({ type: 'view.toggle', chart: 'activity' });
  if (applied && c.views.activity === 'table' && c.focused.discussion === undefined)
    list.push({ type: 'mark.focus', chart: 'discussion', index: 0 });
  if (c.focused.discussion !== undefined && c.saved === null && c.fileError === null)
    list.push({ type: 'file.request', chart: 'activity', format: 'csv' });
  return list;
};

const events = (snapshot: unknown) =>
  modelEvents<InsightsEvent, Snapshot>(userEvents(snapshot), {
    loadInsights: [
      actorEvent('xstate.done.actor.loadInsights', { output: DATA }),
      actorEvent('xstate.error.actor.loadInsights', { error: offline }),
    ],
    saveFile: [
      actorEvent('xstate.done.actor.saveFile', { output: SAVED }),
      actorEvent('xstate.error.actor.saveFile', { error: new Error('The chart is not drawn yet.') }),
    ],
  })(snapshot);

function setup(user: typeof researcher) {
  const loadInsights = controllableActor<Insights, InsightsFilters>({ dropCancelled: true });
  const saveFile = controllableActor<string, ChartFileRequest>();
  const logic = insightsMachine.provide({ actors: { loadInsights: loadInsights.logic, saveFile: saveFile.logic } });
  render(
    <InsightsActorContext.Provider logic={logic} options={{ input: { currentUser: user }, inspect: coverageInspector }}>
      <InsightsPage />
    </InsightsActorContext.Provider>,
  );
  return { loadInsights, saveFile, ux: userEvent.setup({ delay: null }) };
}

/** What the page shows. */
interface InsightsView {
  denied: boolean;
  loading: boolean;
  problem: string | null;
  ready: null | {
    from: string;
    to: string;
    rangeProblem: boolean;
    activityTableRows: number | null;
    readout: string | null;
    file: string;
  };
}

const discussionRow = rowText(tableOf('discussion', DATA), 0);
const HINT = 'Move the pointer over a bar, or Tab to the chart and use the arrow keys.';

function expectedView(s: Snapshot): InsightsView {
  const c = s.context;
  const saving = s.matches({ ready: 'saving' });
  let file = '';
  if (saving) file = 'Preparing the file…';
  else if (c.saved) file = `Downloaded ${c.saved}.`;
  else if (c.fileError) file = `The file could not be made: ${c.fileError.message}`;
  return {
    denied: s.matches('denied'),
    loading: s.matches('loading'),
    problem: s.matches('loadFailed') ? 'The charts could not be loaded' : null,
    ready: s.matches('ready')
      ? {
          from: c.draft.from,
          to: c.draft.to,
          rangeProblem: c.problem !== null,
          activityTableRows: c.views.activity === 'table' ? DATA.activity.length : null,
          readout: c.focused.discussion === undefined ? HINT : discussionRow,
          file,
        }
      : null,
  };
}

const section = (name: string) => screen.getByRole('heading', { name, level: 2 }).closest('section')!;

function observedView(): InsightsView {
  const form = screen.queryByRole('form', { name: 'Chart filters' });
  const alert = screen.queryAllByRole('alert').find((a) => a.querySelector('h2'));
  const activityTable = form ? within(section('Activity per week')).queryByRole('table') : null;
  return {
    denied: screen.queryByText(INSIGHTS_DENIED_MESSAGE) !== null,
    loading: screen.queryByRole('status', { name: 'Loading the charts' }) !== null,
    problem: alert?.querySelector('h2')?.textContent ?? null,
    ready: form
      ? {
          from: (screen.getByLabelText('From') as HTMLInputElement).value,
          to: (screen.getByLabelText('To') as HTMLInputElement).value,
          rangeProblem: screen.queryByText(RANGE_ORDER_MESSAGE) !== null,
          activityTableRows: activityTable ? within(activityTable).getAllByRole('row').length - 1 : null,
          readout: within(section('Discussion per shared portfolio')).getByText(/^(Move the pointer|Shared portfolio )/)
            .textContent,
          file: screen.getAllByRole('status').find((el) => !el.getAttribute('aria-label'))?.textContent ?? '',
        }
      : null,
  };
}

const WHO: [string, typeof researcher][] = [
  ['a researcher', researcher],
  ['a teacher', teacher],
];

describe.each(WHO)('insights model (%s)', (_who, user) => {
  const model = createPathModel(insightsMachine, { input: { currentUser: user }, events });
  const paths = model.getShortestPaths();
  it('has paths', () => {
    expect(paths.length).toBeGreaterThan(0);
  });
  for (const path of paths) {
    it(`reaches ${JSON.stringify(path.state.value)}: ${path.steps.map((step) => step.event.type).join(' → ')}`, async () => {
      const h = setup(user);
      const requested: InsightsFilters[] = [];
      let checked = 0;
      await path.test({
        states: {
          '*': async (state) => {
            const expected = expectedView(state as unknown as Snapshot);
            await waitFor(() => expect(observedView()).toEqual(expected));
            checked += 1;
          },
        },
        events: {
          'xstate.done.actor.loadInsights': async () => {
            const call = h.loadInsights.next();
            requested.push(call.input);
            await act(async () => call.deferred.resolve(DATA));
          },
          'xstate.error.actor.loadInsights': async () => {
            const call = h.loadInsights.next();
            requested.push(call.input);
            await act(async () => call.deferred.reject(offline));
          },
          'xstate.done.actor.saveFile': async () => {
            const call = h.saveFile.next();
            // The file holds the activity table's very numbers.
            expect(call.input).toEqual({
              chart: 'activity',
              format: 'csv',
              fileName: SAVED,
              table: tableOf('activity', DATA),
            });
            await act(async () => call.deferred.resolve(SAVED));
          },
          'xstate.error.actor.saveFile': async () => {
            await act(async () => h.saveFile.next().deferred.reject(new Error('The chart is not drawn yet.')));
          },
          retry: async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Try again' }));
          },
          'filters.change': async ({ event }) => {
            const { patch } = event as Extract<InsightsEvent, { type: 'filters.change' }>;
            if (patch.from !== undefined)
              fireEvent.change(screen.getByLabelText('From'), { target: { value: patch.from } });
            if (patch.to !== undefined) fireEvent.change(screen.getByLabelText('To'), { target: { value: patch.to } });
          },
          'filters.apply': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Show' }));
          },
          'view.toggle': async () => {
            await h.ux.click(within(section('Activity per week')).getByRole('button', { name: 'Show the data table' }));
          },
          'mark.focus': async () => {
            // The drawings are a part of their own: the first time, they arrive a moment after the page.
            const mark = await within(section('Discussion per shared portfolio')).findByRole('img', {
              name: discussionRow,
            });
            act(() => mark.focus());
          },
          'file.request': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Download Activity per week as CSV' }));
          },
        },
      });
      expect(checked).toBe(path.steps.length);
      // The numbers shown are those of the filters last asked for; a reversed range is never asked for.
      const end = path.state as unknown as Snapshot;
      const ready = end.matches('ready');
      expect(ready ? requested.at(-1) : null).toEqual(ready ? end.context.applied : null);
      for (const filters of requested) expect(filters.to).not.toBe(REVERSED.to);
    });
  }
});
