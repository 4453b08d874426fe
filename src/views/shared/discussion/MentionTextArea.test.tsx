import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { mentionCandidates } from '../browser/SharedArtifactPane.tsx';
import type { MentionCandidate } from './mentionCandidates.ts';
import { matchingCandidates, mentionAt, MentionTextArea } from './MentionTextArea.tsx';

const members: MentionCandidate[] = [
  { id: 4, username: 'Theo Teacher' },
  { id: 5, username: 'Thea Two' },
  { id: 6, username: 'Lee Lead' },
];

function Box({
  candidates = members,
  boxRef,
}: {
  candidates?: readonly MentionCandidate[];
  boxRef?: React.Ref<HTMLTextAreaElement>;
}) {
  const [value, setValue] = useState('');
  return (
    <>
      <label htmlFor="box">Add a comment</label>
      <MentionTextArea id="box" candidates={candidates} value={value} onValueChange={setValue} boxRef={boxRef} />
    </>
  );
}

function setup(props: Parameters<typeof Box>[0] = {}) {
  const ux = userEvent.setup();
  render(<Box {...props} />);
  const box = screen.getByRole('textbox', { name: 'Add a comment' }) as HTMLTextAreaElement;
  return { ux, box };
}

const suggestions = () => screen.queryByRole('listbox', { name: 'Mention a member' });
const optionNames = () =>
  within(suggestions()!)
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('mentionAt (the mention being typed at the caret)', () => {
  it('finds an @ at the start or after a space or punctuation, up to the caret', () => {
    expect(mentionAt('@th', 3)).toEqual({ start: 0, query: 'th' });
    expect(mentionAt('Nice, (@Theo T', 14)).toEqual({ start: 7, query: 'Theo T' });
    expect(mentionAt('mail me at a@b', 14)).toBeNull();
    expect(mentionAt('@Theo\nnext', 10)).toBeNull();
    expect(mentionAt('no mention', 10)).toBeNull();
  });
});

describe('matchingCandidates', () => {
  it('matches the start of the name or of one of its words, case-insensitively, sorted by name', () => {
    expect(matchingCandidates(members, 'th').map((c) => c.username)).toEqual(['Thea Two', 'Theo Teacher']);
    expect(matchingCandidates(members, 'LEAD').map((c) => c.username)).toEqual(['Lee Lead']);
    expect(matchingCandidates(members, 'theo t').map((c) => c.username)).toEqual(['Theo Teacher']);
    expect(matchingCandidates(members, 'x')).toEqual([]);
  });
});

describe('mentionCandidates (who a comment in a shared portfolio may mention)', () => {
  it('is the owner and the members, each once, without the viewer', () => {
    const owner = { id: 6, username: 'Lee Lead' };
    const portfolio = {
      owner,
      members: [owner, { id: 4, username: 'Theo Teacher' }, { id: 9, username: 'Tess Viewer' }],
    } as Parameters<typeof mentionCandidates>[0];
    expect(mentionCandidates(portfolio, 9)).toEqual([
      { id: 6, username: 'Lee Lead' },
      { id: 4, username: 'Theo Teacher' },
    ]);
  });
});

describe('MentionTextArea (the comment box with @ suggestions)', () => {
  it('suggests only the given members as @ is typed, and Enter inserts the chosen one', async () => {
    const { ux, box } = setup();
    await ux.type(box, 'Great work @th');
    expect(optionNames()).toEqual(['@Thea Two', '@Theo Teacher']);
    expect(box.getAttribute('aria-controls')).toBe(suggestions()!.id);
    const [first, second] = within(suggestions()!).getAllByRole('option');
    expect(box.getAttribute('aria-activedescendant')).toBe(first!.id);
    await ux.keyboard('{ArrowDown}');
    expect(second!.getAttribute('aria-selected')).toBe('true');
    expect(box.getAttribute('aria-activedescendant')).toBe(second!.id);
    await ux.keyboard('{Enter}');
    expect(box.value).toBe('Great work @Theo Teacher ');
    expect(box.selectionStart).toBe(box.value.length);
    expect(suggestions()).toBeNull();
    await ux.keyboard('is right');
    expect(box.value).toBe('Great work @Theo Teacher is right');
  });

  it('offers no one outside the list (someone not in the shared portfolio)', async () => {
    const { ux, box } = setup();
    await ux.type(box, '@Zoe');
    expect(suggestions()).toBeNull();
    expect(box.value).toBe('@Zoe');
  });

  it('Escape closes the suggestions only, and a click on one inserts it', async () => {
    const { ux, box } = setup();
    await ux.type(box, '@le');
    expect(optionNames()).toEqual(['@Lee Lead']);
    await ux.keyboard('{Escape}');
    expect(suggestions()).toBeNull();
    expect(box.value).toBe('@le');
    await ux.type(box, ' @t');
    await ux.click(within(suggestions()!).getByRole('option', { name: '@Theo Teacher' }));
    expect(box.value).toBe('@le @Theo Teacher ');
    expect(document.activeElement).toBe(box);
  });

  it('gives the caller’s ref the text box', () => {
    const ref = createRef<HTMLTextAreaElement>();
    const { box } = setup({ boxRef: ref });
    expect(ref.current).toBe(box);
  });
});
