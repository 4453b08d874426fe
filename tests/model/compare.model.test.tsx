import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { compareMachine, type CompareEvent } from '../../src/machines/compare/compareMachine.ts';
import {
  answeringBrowserActors,
  daysAgo,
  makeArtifact,
  makePortfolio,
  renderMyPortfolios,
} from '../../src/test/portfolioHarness.tsx';
import { coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(compareMachine);

const NAMES: Record<number, string> = { 1: 'Ramp races', 2: 'Exit ticket', 3: 'Magnet hunt' };

const portfolio = makePortfolio({
  id: 41,
  name: 'Forces and Motion',
  artifacts: Object.entries(NAMES).map(([id, name], i) =>
    makeArtifact({
      id: Number(id),
      portfolio: { id: 41 },
      parkingLot: false,
      created_at: daysAgo(i + 1),
      responses: { artifactName: name },
    }),
  ),
});

const userEvents: CompareEvent[] = [
  { type: 'compare.toggle' },
  { type: 'compare.pick', artifactId: 1 },
  { type: 'compare.pick', artifactId: 2 },
  { type: 'compare.pick', artifactId: 3 },
];

interface CompareSnapshot {
  value: unknown;
  context: { selection: readonly number[] };
}

/** What a user sees of compare mode. */
interface CompareView {
  phase: string;
  toggleChecked: boolean;
  rowCheckboxes: number;
  /** The artifacts side by side, in order. */
  shown: (string | null)[];
  /** The rows ticked, in table order. */
  ticked: (string | null)[];
  detailPane: boolean;
  /** The heading of the two artifacts' differences (a pair only). */
  differences: string | null;
}

const PHASES = ['empty', 'single', 'pair'];
const TABLE_ORDER = [1, 2, 3];

/** The view a state of compare mode must produce. */
function expectedView(state: CompareSnapshot): CompareView {
  const on = state.value !== 'off';
  return {
    phase: on ? `on.${(state.value as { on: string }).on}` : 'off',
    toggleChecked: on,
    rowCheckboxes: on ? 3 : 0,
    shown: state.context.selection.map((id) => NAMES[id]!),
    ticked: TABLE_ORDER.filter((id) => state.context.selection.includes(id)).map((id) => `Compare ${NAMES[id]}`),
    detailPane: !on,
    differences:
      state.context.selection.length === 2
        ? `Differences from “${NAMES[state.context.selection[0]!]}” to “${NAMES[state.context.selection[1]!]}”`
        : null,
  };
}

/** The view on screen. */
function observedView(): CompareView {
  const region = screen.queryByRole('region', { name: 'Compare Artifacts' });
  const headings = region
    ? within(region)
        .queryAllByRole('heading', { level: 3 })
        .map((h) => h.textContent)
    : [];
  const shown = headings.filter((h) => !h?.startsWith('Differences from'));
  const boxes = screen.queryAllByRole('checkbox', { name: /^Compare / }) as HTMLInputElement[];
  return {
    phase: region ? `on.${PHASES[shown.length]}` : 'off',
    toggleChecked: (screen.getByRole('checkbox', { name: 'Compare' }) as HTMLInputElement).checked,
    rowCheckboxes: boxes.length,
    shown,
    ticked: boxes.filter((box) => box.checked).map((box) => box.getAttribute('aria-label')),
    detailPane: screen.queryByRole('region', { name: 'Artifact details' }) !== null,
    differences: headings.find((h) => h?.startsWith('Differences from')) ?? null,
  };
}

describe('compare model (My Portfolios)', () => {
  const model = createPathModel(compareMachine, { events: modelEvents(userEvents) });
  const paths = model.getShortestPaths();
  it('has paths to every state', () => {
    expect(paths.length).toBeGreaterThan(10);
  });
  for (const path of paths) {
    it(`reaches ${JSON.stringify(path.state.value)}: ${path.steps.map((step) => JSON.stringify(step.event)).join(' → ')}`, async () => {
      const actors = answeringBrowserActors([portfolio]);
      const { ux } = renderMyPortfolios({ path: '/my-portfolios/41', actors, inspect: coverageInspector });
      await screen.findByRole('grid', { name: 'Artifacts' });
      let checked = 0;
      await path.test({
        states: {
          // The differences of a pair come once both artifacts are read whole.
          '*': async (state) => {
            await waitFor(() => expect(observedView()).toEqual(expectedView(state as unknown as CompareSnapshot)));
            checked += 1;
          },
        },
        events: {
          'compare.toggle': async () => {
            await ux.click(screen.getByRole('checkbox', { name: 'Compare' }));
          },
          'compare.pick': async (step) => {
            const { artifactId } = step.event as Extract<CompareEvent, { type: 'compare.pick' }>;
            await ux.click(screen.getByRole('checkbox', { name: `Compare ${NAMES[artifactId]}` }));
          },
        },
      });
      expect(checked).toBe(path.steps.length);
    });
  }
});
