import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { provideTeacherArchive } from '../../src/machines/teacherArchive/provideTeacherArchive.ts';
import {
  ARCHIVE_READY,
  teacherArchiveMachine,
  type TeacherArchiveEvent,
} from '../../src/machines/teacherArchive/teacherArchiveMachine.ts';
import { TeacherArchiveActorContext } from '../../src/machines/teacherArchive/useTeacherArchive.ts';
import type { ArchiveJob } from '../../src/schemas/archive.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { ARCHIVE_TEXT, ArchiveSection } from '../../src/views/dashboard/ArchiveSection.tsx';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts, notify } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { assertEveryStateChecked, coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

// "Download my archive" on a teacher's dashboard, driven through the section.
trackCoverage(teacherArchiveMachine);

type Snapshot = SnapshotFrom<typeof teacherArchiveMachine>;
type Step = { event: unknown };

const counts = { portfolios: 2, artifacts: 5, sharedArtifacts: 1, comments: 3, media: 4 };
const job = (overrides: Partial<ArchiveJob>): ArchiveJob => ({
  id: 41,
  status: 'queued',
  progress: 0,
  counts: { portfolios: 0, artifacts: 0, sharedArtifacts: 0, comments: 0, media: 0 },
  size: null,
  created_at: '2026-03-02T10:00:00.000Z',
  finished_at: null,
  expires_at: null,
  ...overrides,
});
const older = job({
  id: 7,
  status: 'ready',
  progress: 1,
  counts,
  size: 3 * 1024 * 1024,
  finished_at: '2026-03-01T10:00:00.000Z',
  expires_at: '2026-03-08T10:00:00.000Z',
  created_at: '2026-03-01T09:59:00.000Z',
});
const queued = job({});
const building = job({ status: 'building', progress: 0.4, counts });
const done = job({
  status: 'ready',
  progress: 1,
  counts,
  size: 5 * 1024 * 1024,
  finished_at: '2026-03-02T10:01:00.000Z',
  expires_at: '2026-03-09T10:01:00.000Z',
});
const busyRefusal = new ApiError(
  409,
  'conflict',
  'Your archive is already being prepared. You can download it as soon as it is ready.',
  '',
);

function events(snapshot: unknown): TeacherArchiveEvent[] {
  const s = snapshot as Snapshot;
  const current = s.context.archives.find((a) => a.id === queued.id);
  return modelEvents<TeacherArchiveEvent>([{ type: 'archive.request' }, { type: 'archive.retry' }], {
    listArchives: [
      { type: 'xstate.done.actor.listArchives', output: [older] },
      { type: 'xstate.done.actor.listArchives', output: [building, older] },
      { type: 'xstate.error.actor.listArchives', error: new NetworkError() },
    ] as unknown as TeacherArchiveEvent[],
    requestArchive: [
      { type: 'xstate.done.actor.requestArchive', output: queued },
      { type: 'xstate.error.actor.requestArchive', error: busyRefusal },
    ] as unknown as TeacherArchiveEvent[],
    // A build moves on (queued → building) and then finishes.
    pollArchives: [
      ...(current?.status === 'queued' ? [{ type: 'xstate.done.actor.pollArchives', output: [building, older] }] : []),
      { type: 'xstate.done.actor.pollArchives', output: [done, older] },
      ...(current?.status === 'building'
        ? [{ type: 'xstate.error.actor.pollArchives', error: new NetworkError() }]
        : []),
    ] as unknown as TeacherArchiveEvent[],
  })(snapshot);
}

function setup() {
  const listArchives = controllableActor<ArchiveJob[]>();
  const requestArchive = controllableActor<ArchiveJob>();
  const pollArchives = controllableActor<ArchiveJob[], { ms: number }>();
  const logic = provideTeacherArchive({
    notify: ({ message, tone }) => notify(message, tone),
    actors: {
      listArchives: listArchives.logic,
      requestArchive: requestArchive.logic,
      pollArchives: pollArchives.logic,
    },
  });
  render(
    <>
      <TeacherArchiveActorContext.Provider
        logic={logic}
        options={{ input: { pollMs: 10 }, inspect: coverageInspector }}
      >
        <ArchiveSection />
      </TeacherArchiveActorContext.Provider>
      <Toaster />
    </>,
  );
  return { listArchives, requestArchive, pollArchives, ux: userEvent.setup() };
}

type H = ReturnType<typeof setup>;

const section = () => screen.getByRole('region', { name: ARCHIVE_TEXT.title });
const requestButton = () => within(section()).queryByRole('button', { name: ARCHIVE_TEXT.request });
const progressBar = () => within(section()).queryByRole('progressbar', { name: ARCHIVE_TEXT.preparing });
const downloadLinks = () => within(section()).queryAllByRole('link', { name: /^Download the archive of / });

/** The table lists exactly the machine's archives, with a download link for each ready one. */
function expectRows(s: Snapshot) {
  const rows = within(section()).getAllByRole('row').slice(1);
  expect(rows).toHaveLength(s.context.archives.length);
  const ready = s.context.archives.filter((a) => a.status === 'ready');
  expect(downloadLinks().map((a) => a.getAttribute('href'))).toEqual(
    ready.map((a) => `${location.origin}/api/v1/archives/${a.id}/download`),
  );
}

const checks = {
  loading: () => {
    expect(within(section()).getByRole('status').textContent).toContain(ARCHIVE_TEXT.loading);
    expect(requestButton()).toBeNull();
  },
  loadFailed: () => {
    const alert = within(section()).getByRole('alert');
    expect(alert.textContent).toContain(ARCHIVE_TEXT.loadFailed);
    expect(within(alert).getByRole('button', { name: 'Try again' })).not.toBeNull();
    expect(within(section()).queryByRole('table')).toBeNull();
  },
  ready: (s: Snapshot) => {
    const button = requestButton();
    expect(button?.hasAttribute('disabled')).toBe(false);
    expect(progressBar()).toBeNull();
    expect(within(section()).queryByText(ARCHIVE_TEXT.requestFailed) !== null).toBe(s.context.requestError !== null);
    if (s.context.requestError) expect(within(section()).getByRole('alert').textContent).toContain(busyRefusal.message);
    expectRows(s);
  },
  requesting: (s: Snapshot) => {
    expect(requestButton()?.hasAttribute('disabled')).toBe(true);
    expect(
      within(section())
        .getAllByRole('status')
        .some((el) => el.textContent === ARCHIVE_TEXT.requesting),
    ).toBe(true);
    expectRows(s);
  },
  watching: (s: Snapshot) => {
    expect(requestButton()).toBeNull();
    const active = s.context.archives.find((a) => a.status === 'queued' || a.status === 'building')!;
    expect(progressBar()?.getAttribute('aria-valuenow')).toBe(String(Math.round(active.progress * 100)));
    expect(within(section()).getByText(ARCHIVE_TEXT.preparingNote)).not.toBeNull();
    expect(within(section()).queryByRole('button', { name: ARCHIVE_TEXT.checkAgain })).toBeNull();
    expectRows(s);
  },
  pollFailed: (s: Snapshot) => {
    expect(within(section()).getByRole('alert').textContent).toContain(ARCHIVE_TEXT.pollFailed);
    expect(within(section()).getByRole('button', { name: ARCHIVE_TEXT.checkAgain })).not.toBeNull();
    expect(progressBar()).not.toBeNull();
    expectRows(s);
  },
};

/** After a finished build, the toast says so. */
async function finished(): Promise<void> {
  expect(await screen.findByText(ARCHIVE_READY)).not.toBeNull();
}

afterEach(() => clearToasts());

describe('teacher archive model', () => {
  const model = createPathModel(teacherArchiveMachine, { input: { pollMs: 10 }, events });
  const paths = model.getShortestPaths();
  it('has a view check for every state', () => {
    assertEveryStateChecked(teacherArchiveMachine, checks);
    expect(paths.length).toBeGreaterThanOrEqual(5);
  });
  for (const path of paths) {
    const steps = path.steps
      .map((s) =>
        s.event.type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) => (kind === 'done' ? '✓ ' : '✗ ')),
      )
      .filter((type) => type !== 'xstate.init');
    it(`reaches ${JSON.stringify(path.state.value)}: ${steps.join(' → ') || 'start'}`, async () => {
      const h: H = setup();
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'archive.request': async () => {
            await h.ux.click(requestButton()!);
          },
          'archive.retry': async () => {
            const button =
              within(section()).queryByRole('button', { name: 'Try again' }) ??
              within(section()).getByRole('button', { name: ARCHIVE_TEXT.checkAgain });
            await h.ux.click(button);
          },
          'xstate.done.actor.listArchives': async (step: Step) => {
            const { output } = step.event as { output: ArchiveJob[] };
            await act(async () => h.listArchives.next().deferred.resolve(output));
          },
          'xstate.error.actor.listArchives': async (step: Step) => {
            await act(async () => h.listArchives.next().deferred.reject((step.event as { error: unknown }).error));
          },
          'xstate.done.actor.requestArchive': async (step: Step) => {
            await act(async () =>
              h.requestArchive.next().deferred.resolve((step.event as { output: ArchiveJob }).output),
            );
          },
          'xstate.error.actor.requestArchive': async (step: Step) => {
            await act(async () => h.requestArchive.next().deferred.reject((step.event as { error: unknown }).error));
          },
          'xstate.done.actor.pollArchives': async (step: Step) => {
            const { output } = step.event as { output: ArchiveJob[] };
            const call = h.pollArchives.next();
            expect(call.input).toEqual({ ms: 10 });
            await act(async () => call.deferred.resolve(output));
            if (output[0]?.status === 'ready') await finished();
          },
          'xstate.error.actor.pollArchives': async (step: Step) => {
            await act(async () => h.pollArchives.next().deferred.reject((step.event as { error: unknown }).error));
          },
        },
      });
    });
  }
});
