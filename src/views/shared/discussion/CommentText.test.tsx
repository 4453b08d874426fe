import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CommentStamp, CommentText, isEdited, splitMentions } from './CommentText.tsx';

const NAMES = ['Ana Lopez', 'Ana', 'Theo Teacher'];

describe('splitMentions', () => {
  it('finds mentions of the given names, the longest name first, case-insensitively', () => {
    expect(splitMentions('@ana lopez, look at 0:03', NAMES)).toEqual([
      { kind: 'mention', name: 'Ana Lopez', text: '@ana lopez' },
      { kind: 'text', text: ', look at 0:03' },
    ]);
    expect(splitMentions('Thanks @Ana!', NAMES)).toEqual([
      { kind: 'text', text: 'Thanks ' },
      { kind: 'mention', name: 'Ana', text: '@Ana' },
      { kind: 'text', text: '!' },
    ]);
  });

  it('leaves e-mail addresses, unknown names and names running into a word as text (as the server does)', () => {
    for (const text of ['mail ana@Ana.org', '@Bruno hello', '@Anabel, hi', '@']) {
      expect(splitMentions(text, NAMES)).toEqual([{ kind: 'text', text }]);
    }
    expect(splitMentions('', NAMES)).toEqual([]);
  });

  it('shows the doubled space after a picked name as one', () => {
    expect(splitMentions('@Theo Teacher  great idea', NAMES)).toEqual([
      { kind: 'mention', name: 'Theo Teacher', text: '@Theo Teacher' },
      { kind: 'text', text: ' great idea' },
    ]);
  });
});

describe('CommentText', () => {
  it('renders each mention as its own element and any markup as plain text', () => {
    const { container } = render(
      <p>
        <CommentText text={'@Theo Teacher  see <b>this</b> and @Ana'} names={NAMES} />
      </p>,
    );
    const mentions = [...container.querySelectorAll('[data-mention]')];
    expect(mentions.map((m) => [m.textContent, m.getAttribute('data-mention')])).toEqual([
      ['@Theo Teacher', 'Theo Teacher'],
      ['@Ana', 'Ana'],
    ]);
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe('@Theo Teacher see <b>this</b> and @Ana');
  });
});

describe('the stamp of a comment', () => {
  const posted = '2026-03-04T10:00:00.000Z';

  it('counts a comment as edited only when it changed after it was posted', () => {
    expect(isEdited({ created_at: posted, updated_at: posted })).toBe(false);
    expect(isEdited({ created_at: posted, updated_at: '2026-03-04T10:00:00.001Z' })).toBe(false);
    expect(isEdited({ created_at: posted, updated_at: '2026-03-04T10:05:00.000Z' })).toBe(true);
  });

  it('shows when it was posted and an "edited" mark with when', () => {
    render(<CommentStamp comment={{ created_at: posted, updated_at: '2026-03-05T10:05:00.000Z' }} />);
    const time = screen.getByRole('time');
    expect(time.getAttribute('datetime')).toBe(posted);
    expect(time.textContent).toBe('03/04/26');
    expect(time.getAttribute('title')).toMatch(/^March 4, 2026 \d{1,2}:00[ap]m$/);
    expect(screen.getByText('edited').getAttribute('title')).toMatch(/^Edited March 5, 2026 \d{1,2}:05[ap]m$/);
  });
});
