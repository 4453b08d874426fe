import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { controllableActor } from '../../../tests/model/support/deferred.ts';
import type { EditableArtifact } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import { FORM_ERROR_MESSAGE } from '../../schemas/responses.ts';
import type { Structure } from '../../schemas/structure.ts';
// The typed failures the services throw, which the machines turn into messages.
// oxlint-disable-next-line no-restricted-imports
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { renderArtifactEdit } from '../../test/artifactEditHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import { READ_ONLY_MESSAGE } from './ArtifactEditPage.tsx';
import { formatDate, formatDateTime } from '../../schemas/formatting.ts';
import { button, completedArtifact, field, lotArtifact, renderLoaded } from '../../test/artifactEditPageKit.ts';

afterEach(clearToasts);

describe('the artifact edit page: loading', () => {
  it('shows a skeleton while the artifact loads', () => {
    const fetch = controllableActor<EditableArtifact, { artifactId: number }>();
    renderArtifactEdit({ fakes: { fetchArtifact: fetch.logic } });
    expect(screen.getByRole('status', { name: 'Loading artifact' })).toBeTruthy();
    expect(fetch.calls[0]?.input).toEqual({ artifactId: 12 });
  });

  it('says the artifact was not found on a 404', async () => {
    renderArtifactEdit({
      fakes: {
        fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(() =>
          Promise.reject(new ApiError(404, 'not_found', 'Artifact not found.', '')),
        ),
      },
    });
    expect(await screen.findByText('Artifact not found.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to My Portfolios' }).getAttribute('href')).toBe('/my-portfolios');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('says the artifact was not found when it belongs to another portfolio', async () => {
    const artifact = makeArtifact({ id: 12, portfolio: { id: 99 } });
    renderArtifactEdit({
      fakes: { fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => artifact) },
    });
    expect(await screen.findByText('Artifact not found.')).toBeTruthy();
  });

  it('says “Portfolio not found.” for an address without a portfolio id, without asking the server', async () => {
    const fetch = controllableActor<EditableArtifact, { artifactId: number }>();
    renderArtifactEdit({
      input: { kind: 'personal', portfolioId: Number.NaN, artifactId: 12, readOnly: false },
      fakes: { fetchArtifact: fetch.logic },
    });
    expect(await screen.findByText('Portfolio not found.')).toBeTruthy();
    expect(fetch.calls).toHaveLength(0);
  });

  it('offers to try again when loading failed', async () => {
    let attempts = 0;
    const artifact = lotArtifact();
    renderArtifactEdit({
      fakes: {
        fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => {
          attempts += 1;
          if (attempts === 1) throw new NetworkError();
          return artifact;
        }),
      },
    });
    expect((await screen.findByRole('alert')).textContent).toContain('The server could not be reached.');
    await userEvent.setup().click(button('Try again'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Artifact' })).toBeTruthy();
    expect(await screen.findByRole('textbox', { name: 'Artifact Name' })).toBeTruthy();
  });

  it('never shows a form to a read-only user (researcher)', async () => {
    const fetch = controllableActor<EditableArtifact, { artifactId: number }>();
    renderArtifactEdit({
      input: { kind: 'personal', portfolioId: 7, artifactId: 12, readOnly: true },
      fakes: { fetchArtifact: fetch.logic },
    });
    expect(await screen.findByText(READ_ONLY_MESSAGE)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(fetch.calls).toHaveLength(0);
  });
});

describe('the artifact edit page: the form', () => {
  it('lays out the title, dates, uploads, unit timing and day, then the other questions in order', async () => {
    const created = new Date(2026, 10, 21, 9, 5);
    const edited = new Date(2026, 10, 22, 14, 7);
    await renderLoaded(lotArtifact({ created_at: created.toISOString(), updated_at: edited.toISOString() }));
    const form = document.querySelector('form')!;
    const labels = [...form.querySelectorAll('label[for], legend, h2:not(.visually-hidden), dt')]
      .map((el) => el.textContent?.replace('*', '').trim())
      .filter((text) => text && !text.startsWith('Core Idea') && text !== 'Choose files');
    expect(labels.slice(0, 10)).toEqual([
      'Artifact Name',
      'Date Created',
      'Last Edited',
      'Photos, videos or documents',
      'When in the unit was this?',
      'Day of the unit',
      'What kind of evidence is this?',
      'Student work',
      'Lesson plan or materials',
      'Classroom video',
    ]);
    const rest = labels.slice(labels.indexOf('Other') + 1);
    expect(rest.slice(0, 3)).toEqual([
      'What were students working to learn?',
      "What does this evidence show about students' thinking?",
      'Standards or elements of the framework',
    ]);
    expect(labels.at(-1)).toBe('What would you do next, or differently?');
    expect(screen.getByText(formatDate(created.toISOString()))).toBeTruthy();
    expect(screen.getByText(formatDateTime(edited.toISOString()))).toBeTruthy();
    expect(screen.getByText('November 22, 2026 2:07pm')).toBeTruthy();
  });

  it('renders each of the seven question types with its own control', async () => {
    await renderLoaded(lotArtifact());
    expect(field('Artifact Name').tagName).toBe('INPUT');
    expect(field('Artifact Name').type).toBe('text');
    expect(field('What were students working to learn?').tagName).toBe('TEXTAREA');
    const timing = screen.getByLabelText('When in the unit was this?') as HTMLSelectElement;
    expect([...timing.options].map((o) => o.textContent)).toEqual([
      'Select an option',
      'Beginning of unit',
      'Middle of unit',
      'End of unit',
      'Not part of a unit',
    ]);
    const day = field('Day of the unit');
    expect([day.type, day.min, day.step]).toEqual(['number', '0', '1']);
    const kinds = screen.getByRole('group', { name: 'What kind of evidence is this?' });
    expect(within(kinds).getAllByRole('checkbox')).toHaveLength(6);
    expect(screen.getByLabelText('Choose files')).toHaveProperty('type', 'file');
    const standards = screen.getByRole('group', { name: 'Standards or elements of the framework' });
    expect(
      within(standards)
        .getAllByRole('button', { expanded: false })
        .map((b) => b.textContent),
    ).toEqual([
      'Practices for K-12 Science Classrooms',
      'Crosscutting Concepts',
      'Core Ideas in Physical Sciences',
      'Core Ideas in Life Sciences',
      'Core Ideas in Earth and Space Science',
      'Core Ideas in Engineering, Technology and the Application of Science',
    ]);
  });

  it('fills the form from the saved responses', async () => {
    await renderLoaded(
      completedArtifact({
        responses: {
          artifactName: 'Ramp races',
          unitTiming: 'End of unit',
          unitDay: 12,
          artifactCategory: ['Assessment'],
          learningGoal: 'Slopes and speed',
          standardFrameworkTags: ['Patterns', 'PS2.A: Forces and Motion'],
        },
      }),
    );
    expect(field('Artifact Name').value).toBe('Ramp races');
    expect((screen.getByLabelText('When in the unit was this?') as HTMLSelectElement).value).toBe('End of unit');
    expect(field('Day of the unit').value).toBe('12');
    expect((screen.getByLabelText('Assessment') as HTMLInputElement).checked).toBe(true);
    // Panels holding a ticked standard open by themselves.
    expect(screen.getByRole('button', { name: /Crosscutting Concepts/ }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: /Crosscutting Concepts/ }).textContent).toContain('1 selected');
    expect((screen.getByLabelText('Patterns') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('PS2.A: Forces and Motion') as HTMLInputElement).checked).toBe(true);
  });

  it('offers Cancel, Save to Parking Lot, Submit to Portfolio and Delete Artifact for a parking-lot artifact', async () => {
    const { ux, navigateToArtifact, location } = await renderLoaded(lotArtifact());
    expect(button('Save to Parking Lot')).toBeTruthy();
    expect(button('Submit to Portfolio')).toBeTruthy();
    expect(button('Delete Artifact')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    // Cancel goes back to the artifact's view.
    await ux.click(button('Cancel'));
    expect(navigateToArtifact).toHaveBeenCalledWith(7, 12);
    expect(location.history.at(-1)).toBe('/my-portfolios/7/artifacts/12');
  });

  it('offers only Save (and Cancel, Delete Artifact) for a completed artifact', async () => {
    await renderLoaded(completedArtifact());
    expect(button('Save')).toBeTruthy();
    expect(button('Cancel').disabled).toBe(false);
    expect(button('Delete Artifact')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save to Parking Lot' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Submit to Portfolio' })).toBeNull();
  });

  it('takes digits only in a number answer', async () => {
    const { ux } = await renderLoaded(lotArtifact());
    await ux.type(field('Day of the unit'), '1.5e-3+x');
    expect(field('Day of the unit').value).toBe('153');
  });

  it('expands a standards panel from the keyboard and ticks its items', async () => {
    const { ux, saves } = await renderLoaded(lotArtifact());
    const toggle = screen.getByRole('button', { name: 'Crosscutting Concepts' });
    expect(screen.getByLabelText('Patterns').closest('[hidden]')).toBeTruthy();
    toggle.focus();
    await ux.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await ux.click(screen.getByLabelText('Patterns'));
    await ux.click(screen.getByLabelText('Scale, Proportion, and Quantity'));
    await ux.click(button('Save to Parking Lot'));
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]!.body.responses).toEqual({
      standardFrameworkTags: ['Patterns', 'Scale, Proportion, and Quantity'],
    });
  });
});

describe('the artifact edit page: validation (spec §5)', () => {
  it('Submit to Portfolio requires the core questions: messages under each, the top alert, scrolled to the top', async () => {
    const { ux, saves, scrollToTop } = await renderLoaded(lotArtifact());
    await ux.click(button('Submit to Portfolio'));
    expect(screen.getByRole('alert').textContent).toBe(FORM_ERROR_MESSAGE);
    expect(screen.getByText('Field Artifact Name is required.')).toBeTruthy();
    expect(screen.getByText('Field What were students working to learn? is required.')).toBeTruthy();
    expect(field('Artifact Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field('Artifact Name').getAttribute('aria-describedby')!)!.textContent).toBe(
      'Field Artifact Name is required.',
    );
    expect(scrollToTop).toHaveBeenCalledTimes(1);
    expect(saves).toHaveLength(0);
    // Answering a question clears its message.
    await ux.type(field('Artifact Name'), 'Ramp races');
    expect(screen.queryByText('Field Artifact Name is required.')).toBeNull();
    expect(screen.getByText('Field What were students working to learn? is required.')).toBeTruthy();
  });

  it('asks for at least one selection in required choice and standards questions', async () => {
    const structure: Structure = [
      { key: 'artifactName', text: 'Artifact Name', type: 'shortText', core: true },
      {
        key: 'kinds',
        text: 'What kind of evidence is this?',
        type: 'multipleResponse',
        core: true,
        choices: ['Student work', 'Assessment'],
      },
      {
        key: 'standardFrameworkTags',
        text: 'Standards',
        type: 'expansionPanelChoices',
        core: true,
        choices: ['Patterns'],
      },
      { key: 'count', text: 'How many students?', type: 'number', core: true, min: 0, max: 40, step: 1 },
      { key: 'mood', text: 'How did it go?', type: 'singleSelection', core: true, choices: ['Well', 'Badly'] },
    ];
    const { ux, saves } = await renderLoaded(lotArtifact({ structure }));
    await ux.click(button('Submit to Portfolio'));
    expect(screen.getByText('Field What kind of evidence is this? requires at least one selection.')).toBeTruthy();
    expect(screen.getByText('Field Standards requires at least one selection.')).toBeTruthy();
    expect(screen.getByText('Field How many students? is required.')).toBeTruthy();
    expect(screen.getByText('Field How did it go? is required.')).toBeTruthy();
    expect(screen.getByText('Field Artifact Name is required.')).toBeTruthy();
    expect(
      screen.getByRole('group', { name: 'What kind of evidence is this?' }).getAttribute('aria-describedby'),
    ).toBeTruthy();
    expect(saves).toHaveLength(0);
  });

  it('says a number that is not whole “must be an integer”, even when saving to the parking lot', async () => {
    const { ux, saves } = await renderLoaded(lotArtifact());
    // Typing is limited to digits; a pasted decimal still reaches the check.
    field('Day of the unit').focus();
    await ux.paste('2.5');
    expect(field('Day of the unit').value).toBe('2.5');
    await ux.click(button('Save to Parking Lot'));
    expect(screen.getByText('Field Day of the unit must be an integer.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(FORM_ERROR_MESSAGE);
    expect(saves).toHaveLength(0);
  });

  it('checks Day of the unit as it is typed: its bounds on the field, the message next to it, gone once fixed', async () => {
    const { ux, saves } = await renderLoaded(lotArtifact());
    const day = field('Day of the unit');
    expect([day.min, day.max, day.step]).toEqual(['0', '200', '1']);
    await ux.type(day, '250');
    const message = 'Field Day of the unit must be between 0 and 200.';
    expect(screen.getByText(message).id).toBe(day.getAttribute('aria-describedby'));
    expect(day.getAttribute('aria-invalid')).toBe('true');
    await ux.clear(day);
    day.focus();
    await ux.paste('2.5');
    expect(screen.getByText('Field Day of the unit must be an integer.')).toBeTruthy();
    await ux.clear(day);
    await ux.type(day, '200');
    expect(screen.queryByText(message)).toBeNull();
    expect(day.getAttribute('aria-invalid')).toBeNull();
    await ux.click(button('Save to Parking Lot'));
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]!.body).toEqual({ responses: { unitDay: 200 }, parkingLot: true });
  });

  it('Save to Parking Lot does not require the core questions', async () => {
    const { ux, saves } = await renderLoaded(lotArtifact());
    await ux.click(button('Save to Parking Lot'));
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]).toEqual({ artifactId: 12, body: { responses: {}, parkingLot: true } });
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it('Save of a completed artifact requires the core questions too', async () => {
    const { ux, saves } = await renderLoaded(completedArtifact());
    await ux.clear(field('What were students working to learn?'));
    await ux.click(button('Save'));
    expect(screen.getByText('Field What were students working to learn? is required.')).toBeTruthy();
    expect(saves).toHaveLength(0);
  });
});
