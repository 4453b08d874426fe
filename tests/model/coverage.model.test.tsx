import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { coverageMachine, type CoverageEvent } from '../../src/machines/coverage/coverageMachine.ts';
import { CoverageLogicContext } from '../../src/machines/coverage/useCoverage.ts';
import {
  COVERAGE_COLUMNS,
  type Coverage,
  type CoverageArtifactPage,
  type CoverageRequest,
} from '../../src/schemas/coverage.ts';
import { NetworkError } from '../../src/services/errors.ts';
import { CoveragePanel } from '../../src/views/coverage/CoveragePanel.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, isInvoking } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, modelEvent, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';

// The coverage map (decision 056) of a shared portfolio, driven through its panel: the heat map,
// its rows and columns, and the artifacts behind a cell.
trackCoverage(coverageMachine);

type Snapshot = SnapshotFrom<typeof coverageMachine>;
type Step = { event: unknown };

const INPUT: CoverageRequest = { scope: 'shared', id: 7, rows: 'teachers', dimension: 'practices' };
const offline = new NetworkError();
const ev = modelEvent<CoverageEvent>();

/** The map the server answers for a query: two rows, the dimension's columns, counts that differ per cell. */
function mapFor(q: CoverageRequest): Coverage {
  const columns = [...COVERAGE_COLUMNS[q.dimension]];
  const names = q.rows === 'teachers' ? ['Tess Teacher', 'Theo Teacher'] : ['Grades 5–7 Science PLC', 'Design Circle'];
  return {
    scope: q.scope,
    name: 'Grades 5–7 Science PLC',
    rowKind: q.rows,
    dimension: q.dimension,
    columns,
    rows: names.map((name, r) => ({
      id: 11 + r,
      kind: q.rows === 'teachers' ? ('teacher' as const) : ('shared' as const),
      name,
      artifacts: 4 + r,
      tagged: columns.map((_, c) => (c + r) % 3),
      scores: columns.map((_, c) => (c === 0 ? 2 : 0)),
      best: columns.map((_, c) => (c === 0 ? { label: 'Proficient', rank: 3, of: 4 } : null)),
    })),
  };
}

/** Page `page` of the first cell: one artifact each, two in all. */
const pageOf = (page: number): CoverageArtifactPage => ({
  items: [
    {
      kind: 'shared',
      id: 100 + page,
      title: `Ramp race ${page}`,
      portfolio: { id: 7, name: 'Grades 5–7 Science PLC' },
      owner: { id: 11, username: 'Tess Teacher' },
      updated_at: '2026-11-20T10:00:00.000Z',
    },
  ],
  total: 2,
  page,
  pageSize: 50,
});

/** Few paths, every transition: the rows and the columns change once each, from the first map. */
function events(snapshot: unknown): CoverageEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const first = c.query.rows === 'teachers' && c.query.dimension === 'practices';
  const list: CoverageEvent[] = [];
  if (isInvoking(s, 'fetchCoverage'))
    list.push(
      ev('xstate.done.actor.fetchCoverage', { output: mapFor(c.query) }),
      ...(first ? [ev('xstate.error.actor.fetchCoverage', { error: offline })] : []),
    );
  if (s.matches('loadFailed')) list.push({ type: 'retry' }, { type: 'change', dimension: 'crosscutting' });
  if (s.matches({ ready: 'idle' }) && first && c.cell === null)
    list.push(
      { type: 'select', row: 11, column: 'SEP1' },
      { type: 'change', rows: 'portfolios' },
      { type: 'change', dimension: 'crosscutting' },
    );
  if (isInvoking(s, 'fetchCell'))
    list.push(
      ev('xstate.done.actor.fetchCell', { output: pageOf(c.page) }),
      ...(c.items.length === 0 && c.cellError === null
        ? [ev('xstate.error.actor.fetchCell', { error: offline }), { type: 'close' } as const]
        : []),
    );
  if (s.matches({ ready: 'cell' }))
    list.push(...(c.items.length < c.total ? [{ type: 'more' } as const] : []), { type: 'close' });
  if (s.matches({ ready: 'cellFailed' })) list.push({ type: 'retry' }, { type: 'close' });
  return list;
}

function setup() {
  const map = controllableActor<Coverage, CoverageRequest>({ dropCancelled: true });
  const cell = controllableActor<CoverageArtifactPage, CoverageRequest & { row: number; column: string; page: number }>(
    {
      dropCancelled: true,
    },
  );
  const logic = coverageMachine.provide({ actors: { fetchCoverage: map.logic, fetchCell: cell.logic } });
  render(
    <CoverageLogicContext.Provider value={{ logic, inspect: coverageInspector }}>
      <CoveragePanel input={INPUT} rowLabels={{ teachers: 'Members', portfolios: 'The whole portfolio' }} />
    </CoverageLogicContext.Provider>,
  );
  return { map, cell, ux: userEvent.setup() };
}

const table = () => screen.getByRole('table', { name: /^Coverage of / });
const cellList = () => screen.getByRole('region', { name: /·/ });

const checks = {
  loading: () => {
    expect(screen.getByRole('status').textContent).toContain('Loading the coverage map');
    expect(screen.queryByRole('table')).toBeNull();
  },
  loadFailed: () => {
    expect(screen.getByRole('alert').textContent).toContain('The coverage map could not be loaded.');
    expect(screen.queryByRole('table')).toBeNull();
  },
  ready: (s: Snapshot) => {
    const coverage = s.context.coverage!;
    const headers = within(table())
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      coverage.rowKind === 'teachers' ? 'Teacher' : 'Portfolio',
      'Artifacts',
      ...coverage.columns.map((c) => `${c.key}${c.label}`),
    ]);
    for (const row of coverage.rows) {
      const cells = within(table()).getAllByRole('button', { name: new RegExp(` — ${row.name}, `) });
      expect(cells.map((b) => b.textContent)).toEqual(
        row.tagged.map((n, i) => (row.best[i] ? `${n} L${row.best[i]!.rank}/${row.best[i]!.of}` : `${n}`)),
      );
    }
    // One cell is in the tab order.
    expect(table().querySelectorAll('button[tabindex="0"]')).toHaveLength(1);
    expect((screen.getByLabelText('Columns') as HTMLSelectElement).value).toBe(s.context.query.dimension);
    expect((screen.getByLabelText('Rows') as HTMLSelectElement).value).toBe(s.context.query.rows);
  },
  'ready.idle': () => {
    expect(screen.queryByRole('region', { name: /·/ })).toBeNull();
    expect(within(table()).queryByRole('button', { pressed: true })).toBeNull();
  },
  'ready.cellLoading': () => {
    expect(within(cellList()).getByRole('status').textContent).toContain('Loading the artifacts');
    expect(within(table()).getByRole('button', { pressed: true }).getAttribute('aria-label')).toMatch(
      / — Tess Teacher, SEP1 /,
    );
  },
  'ready.cell': (s: Snapshot) => {
    const links = within(cellList()).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(s.context.items.map((i) => i.title));
    expect(links[0]!.getAttribute('href')).toBe('/shared-portfolios/7/artifacts/101');
    expect(within(cellList()).getByText(/of 2 artifacts/).textContent).toContain(`${s.context.items.length} of 2`);
    expect(within(cellList()).queryByRole('button', { name: 'Show more' }) !== null).toBe(s.context.items.length < 2);
  },
  'ready.cellFailed': () => {
    expect(within(cellList()).getByRole('alert').textContent).toContain('The artifacts could not be loaded.');
  },
};

describe('coverage map model (a shared portfolio’s section)', () => {
  const paths = checkedShortestPaths(coverageMachine, { input: INPUT, events }, checks, 8);
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      const h = setup();
      const settle = async (
        call: { deferred: { resolve: (v: never) => void; reject: (e: unknown) => void } },
        step: Step,
      ) => {
        const e = step.event as { type: string; output?: unknown; error?: unknown };
        await act(async () =>
          e.type.startsWith('xstate.done') ? call.deferred.resolve(e.output as never) : call.deferred.reject(e.error),
        );
      };
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'xstate.done.actor.fetchCoverage': (step: Step) => {
            const call = h.map.next();
            const { output } = step.event as { output: Coverage };
            expect(call.input).toMatchObject({
              scope: 'shared',
              id: 7,
              rows: output.rowKind,
              dimension: output.dimension,
            });
            return settle(call, step);
          },
          'xstate.error.actor.fetchCoverage': (step: Step) => settle(h.map.next(), step),
          'xstate.done.actor.fetchCell': (step: Step) => {
            const call = h.cell.next();
            const { output } = step.event as { output: CoverageArtifactPage };
            expect(call.input).toMatchObject({ row: 11, column: 'SEP1', page: output.page });
            return settle(call, step);
          },
          'xstate.error.actor.fetchCell': (step: Step) => settle(h.cell.next(), step),
          retry: () => h.ux.click(screen.getByRole('button', { name: 'Try again' })),
          change: async (step: Step) => {
            const { rows, dimension } = step.event as { rows?: string; dimension?: string };
            if (rows) await h.ux.selectOptions(screen.getByLabelText('Rows'), rows);
            if (dimension) await h.ux.selectOptions(screen.getByLabelText('Columns'), dimension);
          },
          select: () => h.ux.click(within(table()).getByRole('button', { name: / — Tess Teacher, SEP1 / })),
          more: () => h.ux.click(within(cellList()).getByRole('button', { name: 'Show more' })),
          close: () => h.ux.click(within(cellList()).getByRole('button', { name: 'Close' })),
        },
      });
    });
  }
});
