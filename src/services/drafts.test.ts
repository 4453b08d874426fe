import { afterEach, describe, expect, it } from 'vitest';
import { deleteDraft, deleteDraftsOf, DRAFT_MAX_AGE_MS, readDraft, writeDraft } from './drafts.ts';

afterEach(() => localStorage.clear());

describe('local drafts', () => {
  it('keeps a draft per user and form: another user on the same browser never reads it', () => {
    const now = Date.parse('2026-11-27T10:42:00Z');
    writeDraft(7, 'comment:new:70', 'Half a thought', null, now);
    expect(readDraft(7, 'comment:new:70', now)).toEqual({
      text: 'Half a thought',
      savedAt: '2026-11-27T10:42:00.000Z',
      base: null,
    });
    expect(readDraft(8, 'comment:new:70', now)).toBeNull();
    expect(readDraft(7, 'comment:new:71', now)).toBeNull();
    deleteDraft(7, 'comment:new:70');
    expect(readDraft(7, 'comment:new:70', now)).toBeNull();
  });

  it('drops a draft older than the maximum age when it is read', () => {
    const then = Date.parse('2026-11-01T10:00:00Z');
    writeDraft(7, 'comment:5', 'Old words', '2026-10-30T00:00:00.000Z', then);
    expect(readDraft(7, 'comment:5', then + DRAFT_MAX_AGE_MS + 1)).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  it('ignores what is not a draft (a hand-edited or foreign value)', () => {
    localStorage.setItem('practicefolio.draft:7:comment:9', '{"text": 5}');
    expect(readDraft(7, 'comment:9')).toBeNull();
  });

  it('a sign-out forgets that user’s drafts only (and anyone’s drafts past the maximum age)', () => {
    const now = Date.parse('2026-11-27T10:42:00Z');
    writeDraft(7, 'comment:new:70', 'Mine', null, now);
    writeDraft(8, 'comment:new:70', 'A colleague’s, recent', null, now);
    writeDraft(9, 'comment:new:70', 'A colleague’s, old', null, now - DRAFT_MAX_AGE_MS - 1);
    localStorage.setItem('something.else', 'kept');
    deleteDraftsOf(7, now);
    expect(Object.keys(localStorage).sort()).toEqual(['practicefolio.draft:8:comment:new:70', 'something.else']);
  });
});
