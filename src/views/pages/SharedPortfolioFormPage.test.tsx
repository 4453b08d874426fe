import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { STANDARDS_ITEMS } from '../../schemas/standards.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import {
  makeSharedArtifact,
  makeSharedPortfolio,
  makeTemplatePortfolio,
  TEAM_QUESTION,
} from '../../test/sharedFixtures.ts';
import { clearToasts } from '../feedback/toastStore.ts';
import { SHARED_PORTFOLIO_ABILITIES } from '../../test/abilityFixtures.ts';
import { lee, rita, tess, renderForm, nameField, includeSwitch, save } from '../../test/sharedPortfolioFormPageKit.tsx';

afterEach(() => clearToasts());

describe('shared portfolio form: access', () => {
  it.each([
    ['a teacher', tess],
    ['nobody signed in', null],
  ])('on create tells %s that they may not, without loading anything', async (_, user) => {
    const h = renderForm({ user });
    expect(await screen.findByText('You do not have permission to access this page.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Create Shared Portfolio' })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(h.calls.fetchTemplate).toBe(0);
  });

  it('lets PLC leads and researchers create', async () => {
    for (const user of [lee, rita]) {
      const h = renderForm({ user });
      expect(await screen.findByLabelText('Shared Portfolio Name')).toBeTruthy();
      expect(h.calls.fetchTemplate).toBe(1);
      cleanup();
    }
  });

  it('says so when the template is missing', async () => {
    renderForm({
      fetchTemplate: async () => Promise.reject(new ApiError(404, 'not_found', 'Portfolio not found.', '')),
    });
    expect(await screen.findByText('Portfolio template not found.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'SAVE' })).toBeNull();
  });

  it('offers to try again when the template cannot be loaded', async () => {
    let fail = true;
    const h = renderForm({
      fetchTemplate: async () => (fail ? Promise.reject(new NetworkError()) : makeTemplatePortfolio()),
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(new NetworkError().message)).toBeTruthy();
    fail = false;
    await h.ux.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Shared Portfolio Name')).toBeTruthy();
    expect(h.calls.fetchTemplate).toBe(2);
  });

  it('edits only for the owner or a researcher; others read "Shared portfolio not found."', async () => {
    const member = renderForm({
      mode: 'edit',
      user: tess,
      fetchSharedPortfolio: async () => makeSharedPortfolio({ abilities: SHARED_PORTFOLIO_ABILITIES.member }),
    });
    expect(await screen.findByText('Shared portfolio not found.')).toBeTruthy();
    expect(member.calls.fetchSharedPortfolio).toEqual([9]);
    expect(screen.queryByLabelText('Shared Portfolio Name')).toBeNull();
    cleanup();

    renderForm({ mode: 'edit', user: rita });
    expect(((await screen.findByLabelText('Shared Portfolio Name')) as HTMLInputElement).value).toBe(
      'Grades 5–7 Science PLC',
    );
    cleanup();

    renderForm({ mode: 'edit', user: lee });
    expect(await screen.findByLabelText('Shared Portfolio Name')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Edit Shared Portfolio' })).toBeTruthy();
  });

  it('says "Shared portfolio not found." for a missing portfolio or an address without an id', async () => {
    renderForm({
      mode: 'edit',
      fetchSharedPortfolio: async () =>
        Promise.reject(new ApiError(404, 'not_found', 'Shared portfolio not found.', '')),
    });
    expect(await screen.findByText('Shared portfolio not found.')).toBeTruthy();
    cleanup();
    const h = renderForm({ mode: 'edit', sharedPortfolioId: null });
    expect(await screen.findByText('Shared portfolio not found.')).toBeTruthy();
    expect(h.calls.fetchSharedPortfolio).toEqual([]);
  });
});

describe('shared portfolio form: edit', () => {
  it('shows the portfolio: its values, who it is shared with, when it was created, its questions', async () => {
    const h = renderForm({ mode: 'edit' });
    expect(((await screen.findByLabelText('Shared Portfolio Name')) as HTMLInputElement).value).toBe(
      'Grades 5–7 Science PLC',
    );
    expect(screen.getByRole('button', { name: /^Grade Levels/ }).textContent).toContain('5th Grade, 6th Grade');
    expect((screen.getByLabelText('Subject') as HTMLSelectElement).value).toBe('Science');
    expect((screen.getByLabelText('Portfolio Topic') as HTMLInputElement).value).toBe('Forces and motion');
    expect((screen.getByLabelText('PLC Name') as HTMLInputElement).value).toBe('Middle school science');
    expect((screen.getByLabelText('PLC Goals for Shared Portfolio') as HTMLTextAreaElement).value).toBe(
      'Notice student reasoning.',
    );
    expect(
      within(screen.getByRole('group', { name: 'Currently Shared with' })).getByText('Lee Lead, Tess Teacher'),
    ).toBeTruthy();
    const created = new Date('2026-02-03T15:00:00.000Z');
    const mmddyy = `${String(created.getMonth() + 1).padStart(2, '0')}/${String(created.getDate()).padStart(2, '0')}/26`;
    expect(within(screen.getByRole('group', { name: 'Date Created' })).getByText(mmddyy)).toBeTruthy();
    expect(screen.queryByText(/You can share this portfolio with participants/)).toBeNull();

    const on = (text: string) => includeSwitch(text).getAttribute('aria-checked');
    expect(on('Artifact Name')).toBe('true');
    expect(on('When in the unit was this?')).toBe('true');
    expect(on('Standards or elements of the framework')).toBe('true');
    expect(on('Day of the unit')).toBe('false');
    expect(on('Photos, videos or documents')).toBe('false');
    expect((screen.getByLabelText('Text of team question 1') as HTMLTextAreaElement).value).toBe(TEAM_QUESTION.text);
    expect((screen.getByLabelText('Type of team question 1') as HTMLSelectElement).value).toBe('singleSelection');
    expect(
      (screen.getByLabelText('Choices of team question 1 (separated by commas)') as HTMLTextAreaElement).value,
    ).toBe('Another grade, same school, Another school');
    expect(h.calls.fetchTemplate).toBe(0);
  });

  it('keeps a stored choice that holds a comma when its box is not edited', async () => {
    const h = renderForm({ mode: 'edit', save: async () => makeSharedPortfolio() });
    await h.ux.type(await screen.findByLabelText('PLC Name'), ' PLC');
    await save(h.ux);
    await waitFor(() => expect(h.calls.update).toHaveLength(1));
    const { id, body } = h.calls.update[0]!;
    expect(id).toBe(9);
    expect(body.plcName).toBe('Middle school science PLC');
    expect(body.structure.map((q) => q.key)).toEqual([
      'artifactName',
      'unitTiming',
      'learningGoal',
      'standardFrameworkTags',
      TEAM_QUESTION.key,
    ]);
    expect(body.structure.at(-1)).toEqual({
      key: TEAM_QUESTION.key,
      text: TEAM_QUESTION.text,
      type: 'singleSelection',
      bonus: true,
      choices: TEAM_QUESTION.choices,
    });
    expect(await screen.findByText('Successfully edited shared portfolio')).toBeTruthy();
    expect(h.navigateToSharedPortfolio).toHaveBeenCalledWith(9);
  });

  it('splits the choices on commas once the user edits them', async () => {
    const h = renderForm({ mode: 'edit' });
    const choices = await screen.findByLabelText('Choices of team question 1 (separated by commas)');
    await h.ux.type(choices, ', Home');
    await h.ux.click(includeSwitch('Day of the unit'));
    await save(h.ux);
    await waitFor(() => expect(h.calls.update).toHaveLength(1));
    const { body } = h.calls.update[0]!;
    expect(body.structure.at(-1)!.choices).toEqual(['Another grade', 'same school', 'Another school', 'Home']);
    expect(body.structure.map((q) => q.key)).toContain('unitDay');
    // The template's own questions are never re-split.
    expect(body.structure.find((q) => q.key === 'standardFrameworkTags')!.choices).toEqual([...STANDARDS_ITEMS]);
  });

  it('deletes after a confirmation and goes to Shared Portfolios', async () => {
    const h = renderForm({ mode: 'edit' });
    await h.ux.click(await screen.findByRole('button', { name: 'Delete Shared Portfolio' }));
    const question = screen.getByRole('alertdialog', { name: 'Delete Shared Portfolio' });
    expect(within(question).getByText('Do you want to delete Grades 5–7 Science PLC?')).toBeTruthy();
    await h.ux.click(within(question).getByRole('button', { name: 'NO' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(h.calls.remove).toEqual([]);

    await h.ux.click(screen.getByRole('button', { name: 'Delete Shared Portfolio' }));
    await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'YES' }));
    expect(await screen.findByText('Successfully deleted shared portfolio')).toBeTruthy();
    expect(h.calls.remove).toEqual([9]);
    expect(h.navigateToSharedPortfolios).toHaveBeenCalledTimes(1);
  });

  it('shows the server’s message when the portfolio still has artifacts', async () => {
    const refusal = 'A shared portfolio can be deleted only when it has no artifacts.';
    const h = renderForm({
      mode: 'edit',
      remove: async () => Promise.reject(new ApiError(400, 'shared_portfolio_not_empty', refusal, '')),
    });
    await h.ux.click(await screen.findByRole('button', { name: 'Delete Shared Portfolio' }));
    await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'YES' }));
    expect(within(await screen.findByRole('alert')).getByText(refusal)).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(nameField().disabled).toBe(false);
    expect(h.navigateToSharedPortfolios).not.toHaveBeenCalled();
  });

  it('CANCEL goes back to the portfolio', async () => {
    const h = renderForm({ mode: 'edit' });
    await h.ux.click(await screen.findByRole('button', { name: 'CANCEL' }));
    expect(h.navigateToSharedPortfolio).toHaveBeenCalledWith(9);
  });

  it('opens Edit Participants from the summary', async () => {
    const h = renderForm({ mode: 'edit' });
    await h.ux.click(await screen.findByRole('button', { name: 'Edit Participants' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Participants' });
    expect(await within(dialog).findByText('Pat Pending')).toBeTruthy();
    // Inviting inside the dialog does not submit the page's form.
    await h.ux.type(within(dialog).getByLabelText('Email'), '{Enter}');
    expect(within(dialog).getByText('Email is required')).toBeTruthy();
    expect(h.calls.update).toEqual([]);
    await h.ux.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the shared portfolio form: Delete only when it can succeed', () => {
  it('offers no Delete for a portfolio with artifacts and says why', async () => {
    const h = renderForm({
      mode: 'edit',
      fetchSharedPortfolio: async () => makeSharedPortfolio({ sharedArtifacts: [makeSharedArtifact()] }),
    });
    expect(
      await screen.findByText(
        'A shared portfolio can be deleted only when it has no artifacts. Delete its artifacts first.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Shared Portfolio' })).toBeNull();
    expect(h.calls.remove).toEqual([]);
  });
});

describe('the shared portfolio form: leaving', () => {
  it('asks before a link leaves changes behind; Stay keeps them, Leave goes on', async () => {
    const h = renderForm({ mode: 'edit' });
    await h.ux.type(await screen.findByLabelText('PLC Name'), ' team');
    await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
    const question = screen.getByRole('alertdialog', { name: 'Leave this page?' });
    expect(question.textContent).toContain('Your changes are not saved.');
    await h.ux.click(within(question).getByRole('button', { name: 'Stay on this page' }));
    expect(h.location.history.at(-1)).toBe('/shared-portfolios/9/edit');
    expect((screen.getByLabelText('PLC Name') as HTMLInputElement).value).toMatch(/ team$/);
    await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
    await h.ux.click(screen.getByRole('button', { name: 'Leave without saving' }));
    expect(h.location.history.at(-1)).toBe('/dashboard');
    expect(h.calls.update).toEqual([]);
  });

  it('lets a link go at once when nothing changed', async () => {
    const h = renderForm({ mode: 'create' });
    await screen.findByLabelText('Shared Portfolio Name');
    await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(h.location.history.at(-1)).toBe('/dashboard');
  });
});
