import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { attemptNavigation, installLeaveGuard, isNavigationHeld } from '../../src/app/navigation/leaveGuard.ts';
import { TypedTextGuardProvider } from '../../src/app/navigation/TypedTextGuard.tsx';
import {
  typedTextGuardMachine,
  type TypedTextGuardEvent,
} from '../../src/machines/typedTextGuard/typedTextGuardMachine.ts';
import { useGuardedText } from '../../src/machines/typedTextGuard/useTypedTextGuard.ts';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector } from './support/coverage.ts';
import { checkedShortestPaths, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(typedTextGuardMachine);

type Snapshot = SnapshotFrom<typeof typedTextGuardMachine>;

const TEXT = 'A comment typed but not sent';

/** A comment box as the app's pages have it: typed text is guarded. */
function Box() {
  const [text, setText] = useState('');
  useGuardedText(text.trim() !== '');
  return (
    <label>
      Add a comment
      <textarea value={text} onChange={(e) => setText(e.target.value)} />
    </label>
  );
}

/** A page with a box, a link to another page (which has a box of its own), and the page count. */
function Pages() {
  const [page, setPage] = useState(1);
  return (
    <>
      <p>Page {page}</p>
      <Box key={page} />
      <button type="button" onClick={() => attemptNavigation(() => setPage((n) => n + 1))}>
        Another artifact
      </button>
    </>
  );
}

/** The model's events: a single box typed into and cleared, leaving, and the question's answers. */
function events(snapshot: unknown): TypedTextGuardEvent[] {
  const s = snapshot as Snapshot;
  if (s.matches('confirmingLeave')) return [{ type: 'leave.stay' }, { type: 'leave.confirm' }];
  return [
    s.matches('clean') ? { type: 'box.typed', box: 'comment' } : { type: 'box.cleared', box: 'comment' },
    { type: 'leave.request' },
  ];
}

let pagesOpened = 1;

function unloadAsks(): boolean {
  const unload = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(unload);
  return unload.defaultPrevented;
}

const box = () => screen.getByRole('textbox', { name: 'Add a comment' }) as HTMLTextAreaElement;

function expectNoQuestion(typed: boolean) {
  expect(screen.queryByRole('alertdialog')).toBeNull();
  expect(isNavigationHeld()).toBe(false);
  expect(screen.getByText(`Page ${pagesOpened}`)).toBeTruthy();
  expect(box().value).toBe(typed ? TEXT : '');
  expect(unloadAsks()).toBe(typed);
}

const checks = {
  clean: async () => expectNoQuestion(false),
  typed: async () => expectNoQuestion(true),
  confirmingLeave: async () => {
    // The dialog's module loads once there is typed text: it may still be on its way.
    const question = await screen.findByRole('alertdialog', { name: 'Leave this page?' });
    expect(question.textContent).toContain('Your changes are not saved.');
    expect(isNavigationHeld()).toBe(true);
    // Nothing left yet: the same page, the text kept.
    expect(screen.getByText(`Page ${pagesOpened}`)).toBeTruthy();
    expect(box().value).toBe(TEXT);
    expect(unloadAsks()).toBe(true);
  },
};

describe('typedTextGuard model (a box with typed text, and leaving it)', () => {
  installLeaveGuard(window);

  // Leaving with nothing typed stays in `clean` (no new state for the paths): the page changes at once.
  it('"clean" ← leave.request: the app goes on at once, nothing asked', async () => {
    pagesOpened = 1;
    const ux = userEvent.setup({ delay: null });
    const view = render(
      <TypedTextGuardProvider inspect={coverageInspector}>
        <Pages />
      </TypedTextGuardProvider>,
    );
    await ux.click(screen.getByRole('button', { name: 'Another artifact' }));
    pagesOpened = 2;
    expectNoQuestion(false);
    await act(async () => view.unmount());
  });

  const paths = checkedShortestPaths(typedTextGuardMachine, { events }, checks, 2);
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      pagesOpened = 1;
      const ux = userEvent.setup({ delay: null });
      const view = render(
        <TypedTextGuardProvider inspect={coverageInspector}>
          <Pages />
        </TypedTextGuardProvider>,
      );
      let boxes = 0;
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'box.typed': async () => {
            await ux.type(box(), TEXT);
            boxes = 1;
          },
          'box.cleared': async () => {
            await ux.clear(box());
            boxes = 0;
          },
          'leave.request': async () => {
            await ux.click(screen.getByRole('button', { name: 'Another artifact' }));
            if (boxes === 0) pagesOpened += 1;
          },
          'leave.stay': async () => {
            await ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Stay on this page' }));
          },
          'leave.confirm': async () => {
            await ux.click(
              within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Leave without saving' }),
            );
            pagesOpened += 1;
            boxes = 0;
          },
        },
      });
      await act(async () => view.unmount());
    });
  }
});
