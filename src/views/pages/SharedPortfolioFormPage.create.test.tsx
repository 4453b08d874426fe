import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { STANDARDS_ITEMS, STANDARDS_PANELS } from '../../schemas/standards.ts';
import { ApiError } from '../../services/errors.ts';
import { BASIC_STRUCTURE } from '../../test/artifactFixtures.ts';
import { makeSharedPortfolio } from '../../test/sharedFixtures.ts';
import { clearToasts } from '../feedback/toastStore.ts';
import {
  UUID,
  renderForm,
  nameField,
  includeSwitch,
  rowOf,
  save,
  describedBy,
} from '../../test/sharedPortfolioFormPageKit.tsx';

afterEach(() => clearToasts());

describe('shared portfolio form: create', () => {
  it('shows the summary fields and the note on sharing, without the edit-only parts', async () => {
    renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    for (const label of ['Subject', 'Portfolio Topic', 'PLC Name', 'PLC Goals for Shared Portfolio'])
      expect(screen.getByLabelText(label)).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Grade Levels/ })).toBeTruthy();
    expect(screen.getByText(/You can share this portfolio with participants after it is created/)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Currently Shared with' })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Date Created' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Participants' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Shared Portfolio' })).toBeNull();
    expect(screen.getByRole('button', { name: 'CANCEL' })).toBeTruthy();
  });

  it('offers the 14 grades and the subjects', async () => {
    const h = renderForm();
    await h.ux.click(await screen.findByRole('button', { name: /^Grade Levels/ }));
    const grades = screen.getAllByRole('checkbox').map((c) => c.closest('label')!.textContent);
    expect(grades).toEqual([
      'Pre-K',
      'Kindergarten',
      ...['1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th', '9th', '10th', '11th', '12th'].map(
        (g) => `${g} Grade`,
      ),
    ]);
    const subjects = [...(screen.getByLabelText('Subject') as HTMLSelectElement).options].map((o) => o.textContent);
    expect(subjects).toEqual(['Select a subject', 'Arts', 'History', 'Language Arts', 'Mathematics', 'PE', 'Science']);
  });

  it('lists every template question with a switch: core ones locked on, the others on and toggleable', async () => {
    const h = renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    const table = screen.getByRole('table', { name: 'Questions' });
    const texts = within(table)
      .getAllByRole('switch')
      .map((s) => s.getAttribute('aria-label'));
    expect(texts).toEqual(BASIC_STRUCTURE.map((q) => `Include: ${q.text}`));
    for (const question of BASIC_STRUCTURE)
      expect(includeSwitch(question.text).getAttribute('aria-checked')).toBe('true');

    const core = includeSwitch('Artifact Name');
    expect(core.getAttribute('aria-disabled')).toBe('true');
    expect(describedBy(core)).toBe('Core questions are always included.');
    await h.ux.click(core);
    expect(core.getAttribute('aria-checked')).toBe('true');
    expect(includeSwitch('What were students working to learn?').getAttribute('aria-disabled')).toBe('true');
    // Core questions cannot be edited either: their rows have no text boxes.
    expect(within(rowOf('Artifact Name')).queryByRole('textbox')).toBeNull();

    const optional = includeSwitch('Day of the unit');
    expect(optional.getAttribute('aria-disabled')).toBeNull();
    await h.ux.click(optional);
    expect(optional.getAttribute('aria-checked')).toBe('false');
    await h.ux.click(optional);
    expect(optional.getAttribute('aria-checked')).toBe('true');
  });

  it('shows the file question as File Upload and the standards question as Multiple Response with its panels', async () => {
    renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    const file = within(rowOf('Photos, videos or documents')).getAllByRole('cell');
    expect(file.map((c) => c.textContent).slice(1)).toEqual([
      'Photos, videos or documents',
      'File Upload',
      'Photo, Video, Document',
    ]);
    const standards = rowOf('Standards or elements of the framework');
    expect(within(standards).getAllByRole('cell')[2]!.textContent).toBe('Multiple Response');
    expect(
      within(standards)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(STANDARDS_PANELS.map((p) => p.panel));
    const timing = rowOf('When in the unit was this?');
    expect(within(timing).getAllByRole('cell')[2]!.textContent).toBe('Single Selection');
    expect(
      within(timing)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Beginning of unit', 'Middle of unit', 'End of unit', 'Not part of a unit']);
  });

  it('requires a name, and for each team question a text, a type and (choice types) a choice', async () => {
    const h = renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    // The new question takes the focus, with the type select at its placeholder.
    expect(document.activeElement).toBe(screen.getByLabelText('Text of team question 1'));
    const type = screen.getByLabelText('Type of team question 1') as HTMLSelectElement;
    expect(type.value).toBe('');
    expect([...type.options].map((o) => [o.textContent, o.disabled])).toEqual([
      ['Question Type', true],
      ['Single Selection', false],
      ['Multiple Response', false],
      ['Short Text', false],
      ['Long Text', false],
      ['Number', false],
    ]);
    expect(screen.queryByText('A name is required.')).toBeNull();

    await save(h.ux);
    expect(
      await screen.findByText('You have 1 invalid question. Please add the required info and re-submit.'),
    ).toBeTruthy();
    expect(describedBy(nameField())).toBe('A name is required.');
    expect(nameField().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(nameField());
    expect(describedBy(screen.getByLabelText('Text of team question 1'))).toBe('Question text is required.');
    expect(describedBy(type)).toBe('Question type is required.');
    expect(h.calls.create).toEqual([]);

    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await save(h.ux);
    expect(
      await screen.findByText('You have 2 invalid questions. Please add the required info and re-submit.'),
    ).toBeTruthy();

    // Messages follow the typing once they are on screen.
    await h.ux.type(nameField(), 'Team');
    expect(screen.queryByText('A name is required.')).toBeNull();
    await h.ux.type(screen.getByLabelText('Text of team question 1'), 'Which grade?');
    await h.ux.selectOptions(type, 'Single Selection');
    expect(screen.queryAllByText('Question text is required.')).toHaveLength(1);
    const choices = screen.getByLabelText('Choices of team question 1 (separated by commas)');
    expect(describedBy(choices)).toBe('You must enter at least one choice.');
    await h.ux.type(choices, ' , ,');
    expect(describedBy(choices)).toBe('You must enter at least one choice.');
    await h.ux.type(choices, 'Yes');
    expect(choices.getAttribute('aria-invalid')).toBeNull();
    expect(h.calls.create).toEqual([]);
  });

  it('with only the name missing shows its message, and the summary at the top links to it (no question alert)', async () => {
    const h = renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    await h.ux.type(nameField(), '   ');
    await save(h.ux);
    expect(await screen.findByText('A name is required.')).toBeTruthy();
    const summary = screen.getByRole('alert', { name: 'There is a problem' });
    expect(summary.textContent).not.toMatch(/invalid question/);
    expect(
      within(summary).getByRole('link', { name: 'Shared Portfolio Name: A name is required.' }).getAttribute('href'),
    ).toBe(`#${nameField().id}`);
    expect(h.calls.create).toEqual([]);
  });

  it('a team question can be deleted', async () => {
    const h = renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await h.ux.type(screen.getByLabelText('Text of team question 2'), 'Second');
    await h.ux.click(screen.getByRole('button', { name: 'Delete team question 1' }));
    expect((screen.getByLabelText('Text of team question 1') as HTMLTextAreaElement).value).toBe('Second');
    expect(screen.queryByLabelText('Text of team question 2')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add Question' }));
  });

  it('saves the trimmed name, the details, the chosen questions and the team questions, then goes to the portfolio', async () => {
    const h = renderForm();
    await h.ux.type(await screen.findByLabelText('Shared Portfolio Name'), '  Grade 6 Science Team  ');
    await h.ux.click(screen.getByRole('button', { name: /^Grade Levels/ }));
    await h.ux.click(screen.getByRole('checkbox', { name: '6th Grade' }));
    await h.ux.click(screen.getByRole('checkbox', { name: 'Kindergarten' }));
    await h.ux.keyboard('{Escape}');
    await h.ux.selectOptions(screen.getByLabelText('Subject'), 'Science');
    await h.ux.type(screen.getByLabelText('Portfolio Topic'), 'Forces');
    await h.ux.type(screen.getByLabelText('PLC Name'), 'Middle school');
    await h.ux.type(screen.getByLabelText('PLC Goals for Shared Portfolio'), 'Listen to students.');
    await h.ux.click(includeSwitch('Day of the unit'));
    await h.ux.click(includeSwitch('What would you do next, or differently?'));

    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await h.ux.type(screen.getByLabelText('Text of team question 1'), '  Which grades could use this?  ');
    await h.ux.selectOptions(screen.getByLabelText('Type of team question 1'), 'Multiple Response');
    await h.ux.type(screen.getByLabelText('Choices of team question 1 (separated by commas)'), '5th,  6th ,, 7th');
    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await h.ux.type(screen.getByLabelText('Text of team question 2'), 'Minutes spent');
    await h.ux.selectOptions(screen.getByLabelText('Type of team question 2'), 'Number');
    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await h.ux.type(screen.getByLabelText('Text of team question 3'), 'Anything else?');
    await h.ux.selectOptions(screen.getByLabelText('Type of team question 3'), 'Long Text');

    await save(h.ux);
    await waitFor(() => expect(h.calls.create).toHaveLength(1));
    const body = h.calls.create[0]!;
    expect(body).toMatchObject({
      name: 'Grade 6 Science Team',
      grades: ['K', '6th'],
      subject: 'Science',
      topic: 'Forces',
      plcName: 'Middle school',
      plcGoals: 'Listen to students.',
    });
    const excluded = new Set(['unitDay', 'nextSteps']);
    // Template questions go exactly as the template has them: the standards items keep their commas.
    expect(body.structure.slice(0, 7)).toEqual(BASIC_STRUCTURE.filter((q) => !excluded.has(q.key)));
    expect(body.structure.find((q) => q.key === 'standardFrameworkTags')!.choices).toEqual([...STANDARDS_ITEMS]);
    expect(STANDARDS_ITEMS).toContain('Scale, Proportion, and Quantity');
    const bonus = body.structure.slice(7);
    expect(bonus).toEqual([
      {
        key: expect.stringMatching(UUID),
        text: 'Which grades could use this?',
        type: 'multipleResponse',
        bonus: true,
        choices: ['5th', '6th', '7th'],
      },
      { key: expect.stringMatching(UUID), text: 'Minutes spent', type: 'number', bonus: true, min: 1, max: 1, step: 1 },
      { key: expect.stringMatching(UUID), text: 'Anything else?', type: 'longText', bonus: true },
    ]);
    expect(new Set(bonus.map((q) => q.key)).size).toBe(3);
    expect(await screen.findByText('Successfully created shared portfolio')).toBeTruthy();
    expect(h.navigateToSharedPortfolio).toHaveBeenCalledWith(42);
  });

  it('keeps the form and shows the server’s refusal', async () => {
    const refusal =
      'You have 1 invalid question. Please add the required info and re-submit. Question text is required.';
    const h = renderForm({ save: async () => Promise.reject(new ApiError(400, 'invalid_questions', refusal, '')) });
    await h.ux.type(await screen.findByLabelText('Shared Portfolio Name'), 'Team');
    await save(h.ux);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', expect.stringContaining(refusal));
    expect(nameField().value).toBe('Team');
    expect((screen.getByRole('button', { name: 'SAVE' }) as HTMLButtonElement).disabled).toBe(false);
    expect(h.navigateToSharedPortfolio).not.toHaveBeenCalled();
  });

  it('CANCEL goes back to Shared Portfolios without saving', async () => {
    const h = renderForm();
    await h.ux.type(await screen.findByLabelText('Shared Portfolio Name'), 'Team');
    await h.ux.click(screen.getByRole('button', { name: 'CANCEL' }));
    expect(h.navigateToSharedPortfolios).toHaveBeenCalledTimes(1);
    expect(h.calls.create).toEqual([]);
  });

  it('disables the form while saving', async () => {
    let finish!: (sp: SharedPortfolio) => void;
    const h = renderForm({ save: () => new Promise((resolve) => (finish = resolve)) });
    await h.ux.type(await screen.findByLabelText('Shared Portfolio Name'), 'Team');
    await save(h.ux);
    expect(await screen.findByText('Saving shared portfolio')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'SAVE' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'CANCEL' }) as HTMLButtonElement).disabled).toBe(true);
    expect(nameField().disabled).toBe(true);
    await act(async () => finish(makeSharedPortfolio({ id: 43 })));
    expect(h.navigateToSharedPortfolio).toHaveBeenCalledWith(43);
  });
});
