import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { signOut } from '../../services/session.ts';
import { rowNames } from '../../test/portfolioHarness.tsx';
import { badRequest } from '../../test/sharedHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import { PLC, setup, reactionsOf, commentsOf, openArtifact } from '../../test/sharedPortfoliosPageKit.tsx';

afterEach(() => {
  clearToasts();
  signOut();
});

describe('Shared Portfolios: reactions', () => {
  it('pressing one’s own reaction removes it; pressing another’s adds one; nothing is fetched again', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Exemplar, 2' }));
    await waitFor(() =>
      expect(reactionsOf(pane).getByRole('button', { name: 'Exemplar, 1' }).getAttribute('aria-pressed')).toBe('false'),
    );
    expect(api.calls).toContain('removeReaction 43');
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Bridges grade levels, 1' }));
    await waitFor(() =>
      expect(
        reactionsOf(pane).getByRole('button', { name: 'Bridges grade levels, 2' }).getAttribute('aria-pressed'),
      ).toBe('true'),
    );
    expect(api.calls).toContain('addReaction 70 🌉');
    // The answers are patched in (decision 033): the artifact was fetched once, the portfolio once.
    expect(api.calls.filter((c) => c === `getPortfolio ${PLC}`)).toHaveLength(1);
    expect(api.calls.filter((c) => c === 'getSharedArtifact 70')).toHaveLength(1);
  });

  it('says “No reactions yet.” beside one “Add reaction” button when there are none; the ADD REACTION picker adds one and works with the keyboard', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Magnet hunt');
    expect(reactionsOf(pane).getByText('No reactions yet.')).toBeTruthy();
    expect(reactionsOf(pane).queryByText(/→/)).toBeNull();
    const add = reactionsOf(pane).getByRole('button', { name: 'Add reaction' });
    // One name, the text it shows (the + is not read).
    expect(add.getAttribute('aria-label')).toBeNull();
    expect(
      reactionsOf(pane)
        .getAllByRole('button')
        .filter((b) => /add reaction/i.test(b.textContent ?? '')),
    ).toHaveLength(1);
    expect(add.getAttribute('aria-expanded')).toBe('false');
    await ux.click(add);
    const picker = reactionsOf(pane).getByRole('dialog', { name: 'ADD REACTION' });
    expect(
      within(picker)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(["Let's talk about this", 'Exemplar', 'Bridges grade levels', 'I have a question']);
    expect(document.activeElement).toBe(within(picker).getByRole('button', { name: "Let's talk about this" }));
    await ux.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(within(picker).getByRole('button', { name: 'I have a question' }));
    await ux.keyboard('{Escape}');
    expect(reactionsOf(pane).queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(add);
    await ux.keyboard('{Enter}');
    await ux.keyboard('{ArrowLeft}{Enter}');
    await waitFor(() =>
      expect(reactionsOf(pane).getByRole('button', { name: 'I have a question, 1' }).getAttribute('aria-pressed')).toBe(
        'true',
      ),
    );
    expect(api.calls).toContain('addReaction 72 ❓');
    expect(reactionsOf(pane).queryByText('No reactions yet.')).toBeNull();
    expect(reactionsOf(pane).queryByRole('dialog')).toBeNull();
  });

  it('a refused reaction alerts the server’s message and keeps the counts', async () => {
    const { ux, api } = setup();
    api.fail('addReaction', badRequest('Invalid reaction value.'));
    const pane = await openArtifact(ux, 'Ramp race');
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Bridges grade levels, 1' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid reaction value.');
    expect(
      reactionsOf(pane).getByRole('button', { name: 'Bridges grade levels, 1' }).getAttribute('aria-pressed'),
    ).toBe('false');
  });
});

describe('Shared Portfolios: comments', () => {
  it('counts the characters, refuses a blank comment, takes at most 2500, and posts one', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    const box = commentsOf(pane).getByPlaceholderText('Write a comment...') as HTMLTextAreaElement;
    const send = commentsOf(pane).getByRole('button', { name: 'Post Comment' }) as HTMLButtonElement;
    expect(box.maxLength).toBe(2500);
    expect(commentsOf(pane).getByText('0/2500 characters used')).toBeTruthy();
    expect(send.disabled).toBe(true);
    await ux.type(box, '   ');
    expect(commentsOf(pane).getByText('3/2500 characters used')).toBeTruthy();
    expect(send.disabled).toBe(true);
    await ux.clear(box);
    await ux.type(box, 'Try a steeper ramp');
    expect(commentsOf(pane).getByText('18/2500 characters used')).toBeTruthy();
    expect(send.disabled).toBe(false);
    await ux.click(send);
    await waitFor(() => expect(commentsOf(pane).getAllByRole('article')).toHaveLength(3));
    expect(api.calls).toContain('addComment 70 Try a steeper ramp');
    expect(box.value).toBe('');
    expect(commentsOf(pane).getByText('0/2500 characters used')).toBeTruthy();
    // The table's count and the search follow from the answer.
    await waitFor(() =>
      expect(
        within(screen.getByRole('row', { name: /Ramp race/ }))
          .getAllByRole('gridcell')
          .at(-1)?.textContent,
      ).toBe('3'),
    );
    await ux.type(screen.getByRole('searchbox', { name: 'Search artifacts' }), 'steeper');
    await waitFor(() => expect(rowNames()).toEqual(['Ramp race']));
  });

  it('cuts a pasted text at 2500 characters', async () => {
    const { ux } = setup();
    const pane = await openArtifact(ux, 'Magnet hunt');
    const box = commentsOf(pane).getByPlaceholderText('Write a comment...');
    box.focus();
    await ux.paste('x'.repeat(2600));
    expect(commentsOf(pane).getByText('2500/2500 characters used')).toBeTruthy();
  });

  it('offers Edit and Delete on one’s own comments only; editing saves the new text', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    const [theirs, mine] = commentsOf(pane).getAllByRole('article');
    expect(within(theirs!).queryByRole('button', { name: 'Edit comment' })).toBeNull();
    expect(within(theirs!).queryByRole('button', { name: 'Delete comment' })).toBeNull();
    await ux.click(within(mine!).getByRole('button', { name: 'Edit comment' }));
    const box = within(mine!).getByRole('textbox', { name: 'Edit comment' }) as HTMLTextAreaElement;
    expect(box.value).toBe('We tried it with MARBLES.');
    expect(within(mine!).getByText('25/2500 characters used')).toBeTruthy();
    await ux.clear(box);
    expect((within(mine!).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    await ux.type(box, 'We tried it with ball bearings.');
    await ux.click(within(mine!).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(commentsOf(pane).getByText('We tried it with ball bearings.')).toBeTruthy());
    expect(api.calls).toContain('editComment 32 We tried it with ball bearings.');
    await waitFor(() => expect(commentsOf(pane).queryByRole('textbox', { name: 'Edit comment' })).toBeNull());
  });

  it('Cancel (or Escape) leaves the comment as it was', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    const mine = commentsOf(pane).getAllByRole('article')[1]!;
    await ux.click(within(mine).getByRole('button', { name: 'Edit comment' }));
    await ux.type(within(mine).getByRole('textbox', { name: 'Edit comment' }), ' Extra');
    await ux.keyboard('{Escape}');
    expect(within(mine).getByText('We tried it with MARBLES.')).toBeTruthy();
    expect(api.calls.some((c) => c.startsWith('editComment'))).toBe(false);
  });

  it('deleting one’s comment asks first, then says “Successfully deleted comment”', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    const mine = commentsOf(pane).getAllByRole('article')[1]!;
    await ux.click(within(mine).getByRole('button', { name: 'Delete comment' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Comment' });
    expect(dialog.textContent).toContain('Are you sure you want to delete this comment?');
    await ux.click(within(dialog).getByRole('button', { name: 'NO' }));
    expect(commentsOf(pane).getAllByRole('article')).toHaveLength(2);
    await ux.click(within(mine).getByRole('button', { name: 'Delete comment' }));
    await ux.click(
      within(screen.getByRole('alertdialog', { name: 'Delete Comment' })).getByRole('button', { name: 'YES' }),
    );
    expect(await screen.findByText('Successfully deleted comment')).toBeTruthy();
    await waitFor(() => expect(commentsOf(pane).getAllByRole('article')).toHaveLength(1));
    expect(api.calls).toContain('deleteComment 32');
  });

  it('a refused comment is alerted and the draft kept', async () => {
    const { ux, api } = setup();
    api.fail('addComment', badRequest('A comment can be at most 2500 characters.'));
    const pane = await openArtifact(ux, 'Ramp race');
    const box = commentsOf(pane).getByPlaceholderText('Write a comment...') as HTMLTextAreaElement;
    await ux.type(box, 'Hello');
    await ux.click(commentsOf(pane).getByRole('button', { name: 'Post Comment' }));
    expect((await screen.findByRole('alert')).textContent).toContain('A comment can be at most 2500 characters.');
    expect(box.value).toBe('Hello');
    expect(commentsOf(pane).getAllByRole('article')).toHaveLength(2);
  });
});
