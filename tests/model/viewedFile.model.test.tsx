import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { SnapshotFrom } from 'xstate';
import { ViewedFileInspectContext } from '../../src/machines/viewedFile/useViewedFile.ts';
import { viewedFileMachine, type ViewedFileInput } from '../../src/machines/viewedFile/viewedFileMachine.ts';
import type { ViewedFile } from '../../src/schemas/media.ts';
import { setApiClient, type api } from '../../src/services/api.ts';
import { ApiError } from '../../src/services/errors.ts';
import { ImageViewerPage, UNNAMED_IMAGE } from '../../src/views/pages/ImageViewerPage.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, isInvoking } from './support/coverage.ts';
import { deferred, type Deferred } from './support/deferred.ts';
import { checkedShortestPaths, modelEvent, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(viewedFileMachine);

type Snapshot = SnapshotFrom<typeof viewedFileMachine>;

const CAPABILITY = 'k2.lx9.AAAAAAAAAAAAAAAAAAAAAA';
const NAME = 'ramp_1a.png';
const IN_ARTIFACT: ViewedFile = {
  name: 'ramp-setup.png',
  alt: 'Two ramps side by side',
  artifact: { kind: 'shared', id: 31, portfolioId: 4, title: 'Ramp races' },
};
const NOWHERE: ViewedFile = { name: 'ramp-setup.png', alt: '', artifact: null };
const gone = new ApiError(404, 'not_found', 'File not found.', '');
const ev = modelEvent<{ type: string }>();

/** The server's answers while the viewer asks: the file in an artifact of the holder's, in none of theirs, or not found. */
function events(snapshot: unknown) {
  const s = snapshot as Snapshot;
  if (!isInvoking(s, 'fetchViewedFile')) return [];
  return [
    ev('xstate.done.actor.fetchViewedFile', { output: IN_ARTIFACT }),
    ev('xstate.done.actor.fetchViewedFile', { output: NOWHERE }),
    ev('xstate.error.actor.fetchViewedFile', { error: gone }),
  ];
}

let answer: Deferred<unknown>;
let asked: { method: string; path: string }[] = [];

function setup(input: ViewedFileInput) {
  asked = [];
  answer = deferred<unknown>();
  setApiClient({
    request: (req: { method: string; path: string }) => {
      asked.push({ method: req.method, path: req.path });
      return answer.promise;
    },
  } as unknown as ReturnType<typeof api>);
  const location = memoryLocation({ path: `/images/uploads/${CAPABILITY}/${NAME}`, record: true });
  render(
    <Router hook={location.hook}>
      <ViewedFileInspectContext.Provider value={coverageInspector}>
        <ImageViewerPage src={`/api/v1/uploads/${CAPABILITY}/${NAME}`} fileName={NAME} capability={input.capability} />
      </ViewedFileInspectContext.Provider>
    </Router>,
  );
  return location;
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;
/** The way back when nothing better is known: the browser's Back, or the dashboard in a tab without history. */
const expectFallbackBack = () => {
  const back =
    screen.queryByRole('button', { name: '← Back' }) ?? screen.getByRole('link', { name: '← Back to the dashboard' });
  expect(back).toBeTruthy();
};

const checks = {
  starting: async () => {
    throw new Error('"starting" is never a resting state');
  },
  skipped: async () => {
    expect(asked).toEqual([]);
    expect(heading()).toBe(UNNAMED_IMAGE);
    expectFallbackBack();
  },
  loading: async () => {
    expect(asked).toEqual([{ method: 'GET', path: `/viewer-files/${CAPABILITY}/${NAME}` }]);
    expect(heading()).toBe(UNNAMED_IMAGE);
  },
  known: async (s: Snapshot) => {
    const file = s.context.file!;
    // Named as the person named the file, never the stored name.
    expect(heading()).toBe(file.name);
    expect(document.title).toContain(file.name);
    expect(document.body.textContent).not.toContain('ramp_1a');
    expect(screen.getByRole('img').getAttribute('alt')).toBe(file.alt || file.name);
    if (file.artifact)
      expect(screen.getByRole('link', { name: `← Back to ${file.artifact.title}` }).getAttribute('href')).toBe(
        '/shared-portfolios/4/artifacts/31',
      );
    else expectFallbackBack();
  },
  unknown: async () => {
    expect(heading()).toBe(UNNAMED_IMAGE);
    expectFallbackBack();
  },
};

afterEach(() => setApiClient(null));

for (const input of [
  { capability: CAPABILITY, name: NAME },
  { capability: null, name: NAME },
] satisfies ViewedFileInput[]) {
  describe(`viewedFile model (an image viewer opened ${input.capability ? 'from a bare link' : 'with no capability to ask about'})`, () => {
    const paths = checkedShortestPaths(viewedFileMachine, { input, events }, checks, input.capability ? 2 : 0);
    for (const path of paths) {
      it(`${pathName(path)}`, async () => {
        setup(input);
        await path.test({
          states: checkStates<Snapshot>(checks),
          events: {
            'xstate.done.actor.fetchViewedFile': async (step) => {
              await act(async () => answer.resolve((step.event as unknown as { output: ViewedFile }).output));
            },
            'xstate.error.actor.fetchViewedFile': async () => {
              await act(async () => answer.reject(gone));
            },
          },
        });
      });
    }
  });
}
