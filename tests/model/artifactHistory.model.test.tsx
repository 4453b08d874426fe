import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  artifactHistoryMachine,
  type ArtifactHistoryContext as HistoryContext,
  type ArtifactHistoryEvent,
  type StoredArtifact,
  type VersionPair,
} from '../../src/machines/artifactHistory/artifactHistoryMachine.ts';
import { ArtifactHistoryContext } from '../../src/machines/artifactHistory/useArtifactHistory.ts';
import { diffArtifacts } from '../../src/machines/artifactHistory/versionDiff.ts';
import type { VersionDetail, VersionListResponse, VersionSummary } from '../../src/schemas/versions.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import type { VersionHolder } from '../../src/services/versionService.ts';
import { BASIC_STRUCTURE } from '../../src/test/artifactFixtures.ts';
import { CHANGED, HISTORY_FAILED, RESTORED } from '../../src/views/artifacts/history/ArtifactHistory.tsx';
import { DIFF_LEGEND, NO_DIFFERENCES } from '../../src/views/artifacts/history/DiffView.tsx';
import { HistorySection } from '../../src/views/artifacts/history/HistorySection.tsx';
import { preloadParts } from '../../src/views/components/lazyParts.tsx';
import { coverageInspector, createPathModel } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(artifactHistoryMachine);

interface Snapshot {
  value: unknown;
  context: HistoryContext;
  matches: (value: string) => boolean;
  can: (event: ArtifactHistoryEvent) => boolean;
}

const ARTIFACT_ID = 41;
const SEEN = '2026-11-20T10:00:00.000Z';
const GOALS = [
  '',
  'Students roll cars.',
  'Students roll toy cars.',
  'Students roll toy cars down ramps.',
  'Students roll toy cars.',
];

const summary = (number: number): VersionSummary => ({
  number,
  author: { id: 5, name: 'Theo Teacher' },
  created_at: `2026-11-2${number}T09:00:00.000Z`,
  client: number === 4 ? 'restore' : 'web',
  restoredFrom: number === 4 ? 2 : null,
  summary: number === 1 ? 'First version' : 'What were students working to learn?',
});
const detail = (number: number): VersionDetail => ({
  ...summary(number),
  responses: { artifactName: 'Ramp races', learningGoal: GOALS[number]! },
  images: [],
  videos: [],
  documents: [],
});
const page = (numbers: number[], total: number, nextBefore: number | null): VersionListResponse => ({
  items: numbers.map(summary),
  total,
  nextBefore,
});
const PAGES = {
  three: page([3, 2], 3, 2),
  one: page([1], 1, null),
  rest: page([1], 3, null),
  afterRestore: page([4, 3], 4, 3),
};
const restored: StoredArtifact = {
  updated_at: '2026-11-24T09:00:00.000Z',
  responses: detail(2).responses,
  images: [],
  videos: [],
  documents: [],
};
const offline = new NetworkError();
const changedSince = new ApiError(409, 'conflict', 'Someone else saved this artifact.', '');
const broken = new ApiError(500, 'internal_error', 'Boom', '');

const actorEvent = (type: string, payload: Record<string, unknown>) =>
  ({ type, ...payload }) as unknown as ArtifactHistoryEvent;
const isDefault = (pair: VersionPair | null) => pair?.older === 2 && pair.newer === 3;
const wanted = (c: HistoryContext) => (c.pair ? [c.pair.older, c.pair.newer].filter((n) => !(n in c.details)) : []);

function events(snapshot: unknown): ArtifactHistoryEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const fresh = c.error === null && c.notice === null;
  const list: ArtifactHistoryEvent[] = [];
  if (s.matches('loading')) {
    const done = (output: VersionListResponse) => actorEvent('xstate.done.actor.listVersions', { output });
    if (c.notice !== null) list.push(done(PAGES.afterRestore));
    else if (c.error !== null) list.push(done(PAGES.three));
    else
      list.push(done(PAGES.three), done(PAGES.one), actorEvent('xstate.error.actor.listVersions', { error: offline }));
  }
  if (s.matches('failed')) list.push({ type: 'retry' });
  if (s.matches('reading')) {
    list.push(actorEvent('xstate.done.actor.readVersions', { output: wanted(c).map(detail) }));
    if (fresh && isDefault(c.pair)) list.push(actorEvent('xstate.error.actor.readVersions', { error: offline }));
  }
  if (s.matches('ready')) {
    if (c.error?.of === 'read') list.push({ type: 'retry' });
    else if (fresh && isDefault(c.pair) && c.versions.length === 2)
      list.push({ type: 'more' }, { type: 'restore.ask', number: 2 });
    // Any two loaded versions: the first and the newest once the older page is there.
    else if (fresh && isDefault(c.pair) && c.versions.length === 3)
      list.push({ type: 'compare.select', older: 1, newer: 3 });
  }
  if (s.matches('loadingMore'))
    list.push(
      actorEvent('xstate.done.actor.listMore', { output: PAGES.rest }),
      actorEvent('xstate.error.actor.listMore', { error: offline }),
    );
  if (s.matches('confirming')) list.push({ type: 'restore.confirm' }, { type: 'restore.cancel' });
  if (s.matches('restoring'))
    list.push(
      actorEvent('xstate.done.actor.restoreVersion', { output: restored }),
      actorEvent('xstate.error.actor.restoreVersion', { error: changedSince }),
      actorEvent('xstate.error.actor.restoreVersion', { error: broken }),
    );
  if (s.matches('refreshing'))
    list.push(
      actorEvent('xstate.done.actor.getCurrent', { output: restored }),
      actorEvent('xstate.error.actor.getCurrent', { error: offline }),
    );
  return list.filter((event) => event.type.startsWith('xstate.') || s.can(event));
}

type Fake<O, I> = ReturnType<typeof controllableActor<O, I>>;
let fakes: {
  list: Fake<VersionListResponse, { holder: VersionHolder; artifactId: number; before: number | undefined }>;
  read: Fake<VersionDetail[], { holder: VersionHolder; artifactId: number; numbers: number[] }>;
  restore: Fake<StoredArtifact, { holder: VersionHolder; artifactId: number; number: number; updatedAt: string }>;
  current: Fake<StoredArtifact, { holder: VersionHolder; artifactId: number }>;
} | null = null;
let changes: StoredArtifact[] = [];

async function setup() {
  fakes = {
    list: controllableActor(),
    read: controllableActor(),
    restore: controllableActor(),
    current: controllableActor(),
  };
  changes = [];
  const logic = artifactHistoryMachine.provide({
    actors: {
      listVersions: fakes.list.logic,
      readVersions: fakes.read.logic,
      restoreVersion: fakes.restore.logic,
      getCurrent: fakes.current.logic,
    },
  });
  render(
    <ArtifactHistoryContext.Provider value={{ logic, inspect: coverageInspector }}>
      <HistorySection
        holder="sharedArtifact"
        artifactId={ARTIFACT_ID}
        updatedAt={SEEN}
        structure={BASIC_STRUCTURE}
        canRestore
        onChanged={(artifact) => changes.push(artifact)}
        headingLevel={3}
      />
    </ArtifactHistoryContext.Provider>,
  );
  const ux = userEvent.setup();
  await ux.click(screen.getByRole('button', { name: 'Show history' }));
  return { ux };
}

beforeAll(() => preloadParts());
afterEach(() => {
  cleanup();
  fakes = null;
});

const section = () => screen.getByRole('region', { name: 'History' });

/** What the person sees of the history. */
interface HistoryView {
  loading: boolean;
  failed: boolean;
  versions: string[];
  heading: string | null;
  added: string[] | null;
  notice: string;
  problem: string | null;
  more: boolean;
  dialog: string | null;
}

function expectedView(s: Snapshot): HistoryView {
  const c = s.context;
  const loading = s.matches('loading');
  const failed = s.matches('failed');
  // Read again after a restore, the history stays on screen while the new page comes.
  const listed = !failed && !(loading && c.versions.length === 0);
  const older = c.pair ? c.details[c.pair.older] : undefined;
  const newer = c.pair ? c.details[c.pair.newer] : undefined;
  const diff = older && newer ? diffArtifacts(BASIC_STRUCTURE, older, newer) : null;
  const problems = { restore: 'The version could not be restored.', read: 'The versions could not be read.' };
  return {
    loading,
    failed,
    versions: listed ? c.versions.map((v) => `Version ${v.number}`) : [],
    heading: listed && c.pair ? `Changes from version ${c.pair.older} to version ${c.pair.newer}` : null,
    added:
      listed && diff
        ? diff.fields.flatMap((f) =>
            f.kind === 'text'
              ? f.parts.filter((p) => p.change === 'added').map((p) => `[added: ${p.text.trim() || p.text}]`)
              : [],
          )
        : null,
    notice: !listed || c.notice === null ? '' : c.notice.kind === 'restored' ? RESTORED(c.notice.from) : CHANGED,
    problem:
      listed && c.error && c.error.of !== 'list'
        ? `${c.error.of === 'more' ? 'Older versions could not be loaded.' : problems[c.error.of]} ${c.error.error.message}`
        : null,
    more: listed && c.nextBefore !== null,
    // The question stays while the restore is sent and, refused, while the artifact is read again.
    dialog: ['confirming', 'restoring', 'refreshing'].some((v) => s.matches(v))
      ? `Restore version ${c.restoring}?`
      : null,
  };
}

function observedView(): HistoryView {
  const box = within(section());
  const diffBox = box.queryByRole('region', { name: /^Changes from/ });
  const alerts = box.queryAllByRole('alert');
  const dialog = screen.queryByRole('alertdialog');
  return {
    loading: box.queryByText('Loading the history') !== null,
    failed: alerts.some((a) => a.textContent?.includes(HISTORY_FAILED)),
    versions: [...section().querySelectorAll('ol > li strong')].map((el) => el.textContent ?? ''),
    heading: diffBox ? within(diffBox).getByRole('heading').textContent : null,
    added:
      diffBox && (within(diffBox).queryByText(DIFF_LEGEND) ?? within(diffBox).queryByText(NO_DIFFERENCES))
        ? [...diffBox.querySelectorAll('ins')].map((el) => el.textContent ?? '')
        : null,
    notice:
      box
        .queryAllByRole('status')
        .filter((el) => !el.querySelector('[data-testid="busy-spinner"]'))
        .map((el) => el.textContent ?? '')
        .join('') ?? '',
    problem:
      alerts.map((a) => a.querySelector('p')?.textContent ?? '').find((text) => !text.includes(HISTORY_FAILED)) ?? null,
    more: box.queryByRole('button', { name: /older versions/ }) !== null,
    dialog: dialog ? within(dialog).getByRole('heading').textContent : null,
  };
}

describe('artifactHistory model (the versions of an artifact: compare, page, restore)', () => {
  const model = createPathModel(artifactHistoryMachine, {
    input: { holder: 'sharedArtifact', artifactId: ARTIFACT_ID, updatedAt: SEEN },
    events,
  });
  const paths = model.getShortestPaths();
  it('has paths through every state', () => {
    expect(paths.length).toBeGreaterThan(10);
  });
  for (const path of paths) {
    const title = path.steps.map((step) => step.event.type.replace('xstate.', '')).join(' → ');
    it(`reaches ${JSON.stringify(path.state.value)}: ${title}`, async () => {
      const h = await setup();
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
          'xstate.done.actor.listVersions': async (step) => {
            const call = fakes!.list.next();
            expect(call.input).toEqual({ holder: 'sharedArtifact', artifactId: ARTIFACT_ID, before: undefined });
            await act(async () =>
              call.deferred.resolve((step.event as unknown as { output: VersionListResponse }).output),
            );
          },
          'xstate.error.actor.listVersions': async () => {
            await act(async () => fakes!.list.next().deferred.reject(offline));
          },
          'xstate.done.actor.listMore': async () => {
            const call = fakes!.list.next();
            expect(call.input.before).toBe(2);
            await act(async () => call.deferred.resolve(PAGES.rest));
          },
          'xstate.error.actor.listMore': async () => {
            await act(async () => fakes!.list.next().deferred.reject(offline));
          },
          'xstate.done.actor.readVersions': async () => {
            const call = fakes!.read.next();
            await act(async () => call.deferred.resolve(call.input.numbers.map(detail)));
          },
          'xstate.error.actor.readVersions': async () => {
            await act(async () => fakes!.read.next().deferred.reject(offline));
          },
          'xstate.done.actor.restoreVersion': async () => {
            const call = fakes!.restore.next();
            expect(call.input).toEqual({
              holder: 'sharedArtifact',
              artifactId: ARTIFACT_ID,
              number: 2,
              updatedAt: SEEN,
            });
            await act(async () => call.deferred.resolve(restored));
            expect(changes).toEqual([restored]);
          },
          'xstate.error.actor.restoreVersion': async (step) => {
            await act(async () =>
              fakes!.restore.next().deferred.reject((step.event as unknown as { error: unknown }).error),
            );
          },
          'xstate.done.actor.getCurrent': async () => {
            const call = fakes!.current.next();
            expect(call.input).toEqual({ holder: 'sharedArtifact', artifactId: ARTIFACT_ID });
            await act(async () => call.deferred.resolve(restored));
            expect(changes).toEqual([restored]);
          },
          'xstate.error.actor.getCurrent': async () => {
            await act(async () => fakes!.current.next().deferred.reject(offline));
          },
          retry: async () => {
            await h.ux.click(within(section()).getByRole('button', { name: 'Try again' }));
          },
          more: async () => {
            await h.ux.click(within(section()).getByRole('button', { name: 'Load older versions' }));
          },
          'compare.select': async () => {
            await h.ux.selectOptions(within(section()).getByLabelText('From version'), '1');
            await h.ux.selectOptions(within(section()).getByLabelText('To version'), '3');
            await h.ux.click(within(section()).getByRole('button', { name: 'Compare' }));
          },
          'restore.ask': async () => {
            await h.ux.click(within(section()).getByRole('button', { name: 'Restore version 2' }));
          },
          'restore.confirm': async () => {
            await h.ux.click(
              within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Restore version 2' }),
            );
          },
          'restore.cancel': async () => {
            await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
          },
        },
      });
      expect(checked).toBe(path.steps.length);
    });
  }
});
