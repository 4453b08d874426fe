import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  LOG_FOLLOW_INTERVAL_MS,
  researchExportMachine,
  type ExportOptions,
  type ResearchExportContext,
  type ResearchExportEvent,
} from '../../src/machines/researchExport/researchExportMachine.ts';
import { filtersOf } from '../../src/machines/researchExport/selectors.ts';
import {
  CONSENT_REQUIRED_MESSAGE,
  CONSENT_STATEMENT,
  researchExportQuery,
  type ResearchExportRecord,
} from '../../src/schemas/researchExport.ts';
import { NetworkError } from '../../src/services/errors.ts';
import { makeAccount } from '../../src/test/portfolioHarness.tsx';
import { makeExportRecord, renderResearchExport } from '../../src/test/researchHarness.tsx';
import {
  DOWNLOAD_STARTED_MESSAGE,
  ONLY_RESEARCHERS_EXPORT_MESSAGE,
} from '../../src/views/pages/ResearchExportPage.tsx';
import { coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(researchExportMachine);

const researcher = makeAccount(4, 'Rita Researcher', 'researcher');
const teacher = makeAccount(7, 'Tess Teacher');
const offline = new NetworkError();
const OPTIONS: ExportOptions = {
  teachers: [teacher, makeAccount(8, 'Lee Lead', 'plcLead')],
  sharedPortfolios: [{ id: 31, name: 'Grade 5 PLC' }],
  exports: [makeExportRecord({ id: 1 })],
};
/** The log once the new export is in it, still running (started now: the log follows it). */
const LOG_AFTER: ResearchExportRecord[] = [
  makeExportRecord({
    id: 2,
    status: 'running',
    started_at: new Date().toISOString(),
    finished_at: null,
    rowCounts: {},
    bytes: null,
  }),
  ...OPTIONS.exports,
];
/** The log once the new export has completed. */
const LOG_DONE: ResearchExportRecord[] = [makeExportRecord({ id: 2 }), ...OPTIONS.exports];

interface Snapshot {
  context: ResearchExportContext;
  matches: (value: unknown) => boolean;
}

const actorEvent = (type: string, payload: Record<string, unknown>) =>
  ({ type, ...payload }) as unknown as ResearchExportEvent;
const includeIdentities: ResearchExportEvent = { type: 'filters.change', patch: { identities: 'included' } };
const confirmConsent: ResearchExportEvent = { type: 'filters.change', patch: { consentConfirmed: true } };

/**
 * The researcher names people, confirms the consent, downloads (once: each download makes a new
 * log entry) and refreshes the log; the server answers or fails.
 */
const userEvents = (snapshot: unknown): ResearchExportEvent[] => {
  const s = snapshot as Snapshot;
  const list: ResearchExportEvent[] = [{ type: 'retry' }, { type: 'log.refresh' }];
  if (s.context.draft.identities === 'pseudonymous' && s.context.downloads === 0) list.push(includeIdentities);
  if (s.context.draft.identities === 'included' && !s.context.draft.consentConfirmed) list.push(confirmConsent);
  if (s.context.downloads === 0) list.push({ type: 'export.request' });
  return list;
};

const events = (snapshot: unknown) =>
  modelEvents<ResearchExportEvent, Snapshot>(userEvents(snapshot), {
    loadOptions: [
      actorEvent('xstate.done.actor.loadOptions', { output: OPTIONS }),
      actorEvent('xstate.error.actor.loadOptions', { error: offline }),
    ],
    refreshLog: [
      actorEvent('xstate.done.actor.refreshLog', { output: LOG_AFTER }),
      actorEvent('xstate.done.actor.refreshLog', { output: LOG_DONE }),
      actorEvent('xstate.error.actor.refreshLog', { error: offline }),
    ],
    followLog: [
      actorEvent('xstate.done.actor.followLog', { output: LOG_AFTER }),
      actorEvent('xstate.done.actor.followLog', { output: LOG_DONE }),
      actorEvent('xstate.error.actor.followLog', { error: offline }),
    ],
  })(snapshot);

function setup(user: typeof researcher) {
  const loadOptions = controllableActor<ExportOptions>();
  const refreshLog = controllableActor<ResearchExportRecord[], { delayMs: number }>({ dropCancelled: true });
  const h = renderResearchExport({
    user,
    actors: { loadOptions: loadOptions.logic, refreshLog: refreshLog.logic },
    inspect: coverageInspector,
  });
  return { ...h, loadOptions, refreshLog };
}

/** What a researcher sees of the page. */
interface ExportView {
  denied: boolean;
  loading: boolean;
  problem: string | null;
  form: null | {
    identities: 'pseudonymous' | 'included';
    consentShown: boolean;
    consentChecked: boolean;
    consentProblem: boolean;
    downloadStarted: boolean;
    refreshing: boolean;
    logRows: number;
    logProblem: boolean;
  };
  downloads: number;
}

function expectedView(s: Snapshot): ExportView {
  const { draft, problems, downloads, exports, logError } = s.context;
  const form = s.matches('form');
  return {
    denied: s.matches('denied'),
    loading: s.matches('loading'),
    problem: s.matches('loadFailed') ? 'The export page could not be loaded' : null,
    form: form
      ? {
          identities: draft.identities,
          consentShown: draft.identities === 'included',
          consentChecked: draft.consentConfirmed,
          consentProblem: problems.consentConfirmed !== undefined,
          downloadStarted: downloads > 0,
          refreshing: s.matches({ form: 'refreshingLog' }),
          logRows: exports.length,
          logProblem: logError !== null,
        }
      : null,
    downloads,
  };
}

const logTable = () => screen.getByRole('table', { name: 'Export log' });

function observedView(downloads: readonly string[]): ExportView {
  const form = screen.queryByRole('form', { name: 'Research export filters' });
  const consent = screen.queryByRole('checkbox', { name: CONSENT_STATEMENT }) as HTMLInputElement | null;
  const loadProblem = screen.queryAllByRole('alert').find((a) => a.querySelector('h2'));
  return {
    denied: screen.queryByText(ONLY_RESEARCHERS_EXPORT_MESSAGE) !== null,
    loading: screen.queryByRole('status', { name: 'Loading the export options' }) !== null,
    problem: loadProblem?.querySelector('h2')?.textContent ?? null,
    form: form
      ? {
          identities: (screen.getByRole('radio', { name: /^Include identities/ }) as HTMLInputElement).checked
            ? 'included'
            : 'pseudonymous',
          consentShown: consent !== null,
          consentChecked: consent?.checked ?? false,
          consentProblem: screen.queryByText(CONSENT_REQUIRED_MESSAGE) !== null,
          downloadStarted: screen.queryByText(DOWNLOAD_STARTED_MESSAGE) !== null,
          refreshing: screen.getByRole('button', { name: /^Refresh/ }).textContent === 'Refreshing…',
          logRows:
            within(logTable()).queryAllByRole('row').length -
            1 -
            (within(logTable()).queryByText('No research export yet.') ? 1 : 0),
          logProblem: screen.queryByText(/^The log could not be refreshed/) !== null,
        }
      : null,
    downloads: downloads.length,
  };
}

const WHO: [string, typeof researcher][] = [
  ['a researcher', researcher],
  ['anyone else', teacher],
];

describe.each(WHO)('researchExport model (%s)', (_who, user) => {
  const model = createPathModel(researchExportMachine, { input: { currentUser: user }, events });
  const paths = model.getShortestPaths();
  it('has paths', () => {
    expect(paths.length).toBeGreaterThan(0);
  });
  for (const path of paths) {
    it(`reaches ${JSON.stringify(path.state.value)}: ${path.steps.map((step) => step.event.type).join(' → ')}`, async () => {
      const h = setup(user);
      let checked = 0;
      const answerLog = async ({ event }: { event: unknown }) => {
        const { output } = event as { output: ResearchExportRecord[] };
        await act(async () => h.refreshLog.next().deferred.resolve(output));
      };
      const refuseLog = async () => {
        await act(async () => h.refreshLog.next().deferred.reject(offline));
      };
      await path.test({
        states: {
          '*': async (state) => {
            const expected = expectedView(state as unknown as Snapshot);
            await waitFor(() => expect(observedView(h.downloads)).toEqual(expected));
            checked += 1;
          },
        },
        events: {
          'xstate.done.actor.loadOptions': async () => {
            await act(async () => h.loadOptions.next().deferred.resolve(OPTIONS));
          },
          'xstate.error.actor.loadOptions': async () => {
            await act(async () => h.loadOptions.next().deferred.reject(offline));
          },
          'xstate.done.actor.refreshLog': answerLog,
          'xstate.error.actor.refreshLog': refuseLog,
          // Following a running export: the same reading of the log, two seconds after the last.
          'xstate.done.actor.followLog': async (step) => {
            expect(h.refreshLog.calls[0]?.input).toEqual({ delayMs: LOG_FOLLOW_INTERVAL_MS });
            await answerLog(step);
          },
          'xstate.error.actor.followLog': refuseLog,
          retry: async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Try again' }));
          },
          'filters.change': async ({ event }) => {
            const { patch } = event as Extract<ResearchExportEvent, { type: 'filters.change' }>;
            if (patch.identities === 'included')
              await h.ux.click(screen.getByRole('radio', { name: /^Include identities/ }));
            else await h.ux.click(screen.getByRole('checkbox', { name: CONSENT_STATEMENT }));
          },
          'export.request': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Download package' }));
          },
          'log.refresh': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Refresh' }));
          },
        },
      });
      expect(checked).toBe(path.steps.length);
      // A download asks for exactly what the form said (the draft cannot change after the one download of a path).
      const end = path.state as unknown as Snapshot;
      expect(h.downloads.map((url) => `${new URL(url).pathname}?${new URL(url).searchParams}`)).toEqual(
        end.context.downloads > 0
          ? [`/api/v1/research/export?${researchExportQuery(filtersOf(end.context.draft))}`]
          : [],
      );
    });
  }
});
