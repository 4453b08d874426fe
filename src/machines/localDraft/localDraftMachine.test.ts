import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { readDraft, writeDraft } from '../../services/drafts.ts';
import { isStale, localDraftMachine, PERSIST_DELAY_MS, type LocalDraftInput } from './localDraftMachine.ts';

const FORM = 'comment:edit:70';

function start(input: Partial<LocalDraftInput> = {}) {
  const restored: string[] = [];
  const actor = createActor(localDraftMachine, {
    input: { userId: 3, form: FORM, current: 'Saved text', base: 'v1', ...input },
  }).start();
  actor.on('draft.restored', (e) => restored.push(e.text));
  return { actor, restored };
}

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('localDraftMachine guards', () => {
  it('hasOffer: a stored draft that differs from the text shown is offered', () => {
    writeDraft(3, FORM, 'Unsaved text', 'v1');
    expect(start().actor.getSnapshot().value).toBe('offering');
  });

  it('hasOffer: no offer for the text shown, a blank draft, another user or no user', () => {
    writeDraft(3, FORM, 'Saved text', 'v1');
    expect(start().actor.getSnapshot().value).toEqual({ tracking: 'idle' });
    writeDraft(3, FORM, '   ', 'v1');
    expect(start().actor.getSnapshot().value).toEqual({ tracking: 'idle' });
    writeDraft(3, FORM, 'Unsaved text', 'v1');
    expect(start({ userId: 4 }).actor.getSnapshot().value).toEqual({ tracking: 'idle' });
    expect(start({ userId: null }).actor.getSnapshot().value).toEqual({ tracking: 'idle' });
  });

  it('isStale: a draft typed over another version of the server copy is stale', () => {
    writeDraft(3, FORM, 'Unsaved text', 'v0');
    expect(isStale(start().actor.getSnapshot().context)).toBe(true);
    writeDraft(3, FORM, 'Unsaved text', 'v1');
    expect(isStale(start().actor.getSnapshot().context)).toBe(false);
  });
});

describe('localDraftMachine actions', () => {
  it('persist: the text is kept only once typing paused for the delay', () => {
    const { actor } = start();
    actor.send({ type: 'text.change', text: 'Saved text, more' });
    vi.advanceTimersByTime(PERSIST_DELAY_MS - 1);
    actor.send({ type: 'text.change', text: 'Saved text, more!' });
    vi.advanceTimersByTime(PERSIST_DELAY_MS - 1);
    expect(readDraft(3, FORM)).toBeNull();
    vi.advanceTimersByTime(1);
    expect(readDraft(3, FORM)).toMatchObject({ text: 'Saved text, more!', base: 'v1' });
  });

  it('persist: the saved text or a blank one forgets the draft; page.hidden keeps at once', () => {
    const { actor } = start();
    actor.send({ type: 'text.change', text: 'New' });
    actor.send({ type: 'page.hidden' });
    expect(readDraft(3, FORM)?.text).toBe('New');
    actor.send({ type: 'text.change', text: 'Saved text' });
    vi.advanceTimersByTime(PERSIST_DELAY_MS);
    expect(readDraft(3, FORM)).toBeNull();
  });

  it('takeOffer / emitRestored: restoring puts the draft into the form', () => {
    writeDraft(3, FORM, 'Unsaved text', 'v1');
    const { actor, restored } = start();
    actor.send({ type: 'draft.restore' });
    expect(restored).toEqual(['Unsaved text']);
    expect(actor.getSnapshot().context).toMatchObject({ text: 'Unsaved text', offer: null });
  });

  it('discarding forgets the offered draft, or keeps what was typed meanwhile instead', () => {
    writeDraft(3, FORM, 'Unsaved text', 'v1');
    const first = start();
    first.actor.send({ type: 'draft.discard' });
    expect(first.restored).toEqual([]);
    expect(readDraft(3, FORM)).toBeNull();

    writeDraft(3, FORM, 'Unsaved text', 'v1');
    const second = start();
    second.actor.send({ type: 'text.change', text: 'Typed meanwhile' });
    expect(readDraft(3, FORM)?.text).toBe('Unsaved text');
    second.actor.send({ type: 'draft.discard' });
    expect(readDraft(3, FORM)?.text).toBe('Typed meanwhile');
  });

  it('forget: closing the form forgets the draft, even while typing', () => {
    const { actor } = start();
    actor.send({ type: 'text.change', text: 'New' });
    actor.send({ type: 'form.closed' });
    vi.advanceTimersByTime(PERSIST_DELAY_MS);
    expect(readDraft(3, FORM)).toBeNull();
    expect(actor.getSnapshot().status).toBe('done');
  });
});
