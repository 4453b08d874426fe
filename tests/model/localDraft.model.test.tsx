import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useCallback, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  localDraftMachine,
  type LocalDraftEvent,
  type LocalDraftInput,
} from '../../src/machines/localDraft/localDraftMachine.ts';
import { useLocalDraft } from '../../src/machines/localDraft/useLocalDraft.ts';
import { readDraft, writeDraft } from '../../src/services/drafts.ts';
import { currentUser } from '../../src/services/session.ts';
import { makeUser } from '../../src/test/renderApp.tsx';
import { DraftOfferBar } from '../../src/views/components/DraftOfferBar.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector } from './support/coverage.ts';
import { checkedShortestPaths, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(localDraftMachine);

type Snapshot = SnapshotFrom<typeof localDraftMachine>;

const USER = makeUser('teacher');
const FORM = 'comment:7';
const SAVED = 'The comment as saved';
const LEFT = 'The comment as typed before the tab crashed';
const TYPED = 'The comment as typed now';
const INPUT: LocalDraftInput = { userId: USER.id, form: FORM, current: SAVED, base: '2026-11-27T10:00:00.000Z' };
/** The draft was typed over an older version of the comment. */
const OLDER = '2026-11-26T09:00:00.000Z';

/** A comment being edited, with its local draft. */
function Editor() {
  const [text, setText] = useState(SAVED);
  const apply = useCallback((restored: string) => setText(restored), []);
  const offer = useLocalDraft({ form: FORM, text, current: SAVED, base: INPUT.base, apply }, coverageInspector);
  return (
    <>
      {offer ? <DraftOfferBar offer={offer} what="comment" /> : null}
      <label>
        Edit comment
        <textarea value={text} onChange={(e) => setText(e.target.value)} />
      </label>
    </>
  );
}

function Page() {
  const [open, setOpen] = useState(true);
  return (
    <>
      {open ? <Editor /> : <p>Closed</p>}
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </>
  );
}

/** Typing happens once from the text as opened (or restored), and once more while typing, to keep the paths few. */
function events(snapshot: unknown): LocalDraftEvent[] {
  const s = snapshot as Snapshot;
  if (s.matches('closed')) return [];
  const list: LocalDraftEvent[] = [{ type: 'form.closed' }];
  if (s.matches('offering'))
    list.push({ type: 'draft.restore' }, { type: 'draft.discard' }, { type: 'text.change', text: TYPED });
  if (s.matches({ tracking: 'idle' }) && s.context.text !== TYPED) list.push({ type: 'text.change', text: TYPED });
  if (s.matches({ tracking: 'typing' })) {
    list.push({ type: 'page.hidden' }, {
      type: 'xstate.after.persistDelay.localDraft.tracking.typing',
    } as unknown as LocalDraftEvent);
    if (s.context.text === TYPED) list.push({ type: 'text.change', text: `${TYPED}!` });
  }
  return list.filter((event) => s.can(event) || event.type.startsWith('xstate.after'));
}

const box = () => screen.getByRole('textbox', { name: 'Edit comment' }) as HTMLTextAreaElement;
const offerBar = () => screen.queryByRole('group', { name: 'Unsaved comment' });
const stored = () => readDraft(USER.id, FORM)?.text ?? null;

/** What is stored once the text is kept: the typed text, unless it is the saved one. */
const expectedStore = (text: string) => (text === SAVED || text.trim() === '' ? null : text);

function checksFor(withDraft: boolean) {
  return {
    // Transient (it decides at once between offering and tracking): never on screen.
    starting: async () => {
      throw new Error('"starting" is never a resting state');
    },
    offering: async () => {
      const bar = offerBar()!;
      expect(bar.textContent).toMatch(/Restore your unsaved text from \d{1,2}:\d\d[ap]m\?/);
      // Typed over an older version: said, never restored silently.
      expect(bar.textContent).toContain('The saved copy was changed after this text was typed');
      expect(box().value).not.toBe(LEFT);
      expect(stored()).toBe(LEFT);
    },
    'tracking.idle': async (s: Snapshot) => {
      expect(offerBar()).toBeNull();
      expect(box().value).toBe(s.context.text);
      // Restored and not typed since: the offered draft is still the one stored.
      expect(stored()).toBe(expectedStore(s.context.text) ?? (withDraft && s.context.text === LEFT ? LEFT : null));
    },
    'tracking.typing': async (s: Snapshot) => {
      expect(offerBar()).toBeNull();
      expect(box().value).toBe(s.context.text);
    },
    closed: async () => {
      expect(screen.getByText('Closed')).toBeTruthy();
      await act(async () => vi.advanceTimersByTime(10));
      expect(stored()).toBeNull();
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
  currentUser.value = null;
});

for (const withDraft of [true, false]) {
  describe(`localDraft model (a comment being edited, ${withDraft ? 'a draft left over an older version' : 'no draft'})`, () => {
    const arrange = () => {
      localStorage.clear();
      if (withDraft) writeDraft(USER.id, FORM, LEFT, OLDER);
    };
    arrange();
    const checks = checksFor(withDraft);
    const paths = checkedShortestPaths(localDraftMachine, { input: INPUT, events }, checks, withDraft ? 6 : 3);
    for (const path of paths) {
      it(`${pathName(path)}`, async () => {
        arrange();
        currentUser.value = USER;
        // The typing pause and the forgetting after the form went run on fake time.
        vi.useFakeTimers({ shouldAdvanceTime: true });
        const ux = userEvent.setup({ delay: null, advanceTimers: vi.advanceTimersByTime });
        const view = render(<Page />);
        await path.test({
          states: checkStates<Snapshot>(checks),
          events: {
            'text.change': async (step) => {
              fireEvent.change(box(), { target: { value: (step.event as unknown as { text: string }).text } });
            },
            'xstate.after.persistDelay.localDraft.tracking.typing': async () => {
              await act(async () => vi.advanceTimersByTime(650));
            },
            'page.hidden': async () => {
              act(() => {
                window.dispatchEvent(new Event('pagehide'));
              });
            },
            'draft.restore': async () => {
              await ux.click(within(offerBar()!).getByRole('button', { name: 'Restore' }));
              expect(box().value).toBe(LEFT);
            },
            'draft.discard': async () => {
              await ux.click(within(offerBar()!).getByRole('button', { name: 'Discard' }));
            },
            'form.closed': async () => {
              await ux.click(screen.getByRole('button', { name: 'Cancel' }));
            },
          },
        });
        await act(async () => view.unmount());
        // The draft of a form gone for good is forgotten a moment after it went (not the next test's draft).
        await act(async () => vi.advanceTimersByTime(10));
      });
    }
  });
}
