import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import {
  rubricEditorMachine,
  type RubricEditorInput,
  type RubricEditorLoaded,
  type RubricSave,
} from '../../machines/rubricEditor/rubricEditorMachine.ts';
import { RubricEditorLogicContext } from '../../machines/rubricEditor/useRubricEditor.ts';
import type { Rubric } from '../../schemas/rubrics.ts';
import { ApiError } from '../../services/errors.ts';
import { TALK_RUBRIC } from '../../test/scoringFixtures.ts';
import { preloadParts } from '../components/lazyParts.tsx';
import { RubricSection } from './RubricSection.tsx';

beforeAll(() => preloadParts());

const LOADED: RubricEditorLoaded = {
  chosen: { rubric: TALK_RUBRIC, abilities: { score: true, choose: true } },
  rubrics: [{ ...TALK_RUBRIC, abilities: { edit: true } }],
};

function renderSection(save: (input: RubricSave) => Promise<Rubric>) {
  const saves: RubricSave[] = [];
  const logic = rubricEditorMachine.provide({
    actors: {
      loadRubrics: fromPromise<RubricEditorLoaded, RubricEditorInput>(async () => LOADED),
      saveRubric: fromPromise<Rubric, RubricSave>(async ({ input }) => {
        saves.push(input);
        return save(input);
      }),
    },
  });
  render(
    <RubricEditorLogicContext.Provider value={{ logic }}>
      <RubricSection sharedPortfolioId={7} />
    </RubricEditorLogicContext.Provider>,
  );
  return { saves, ux: userEvent.setup() };
}

describe('Rubric section', () => {
  it('shows the chosen rubric and starts a new one from the NGSS practices', async () => {
    const h = renderSection(async () => ({ ...TALK_RUBRIC, id: 60, name: 'NGSS science and engineering practices' }));
    const section = screen.getByRole('region', { name: 'Rubric' });
    expect(((await screen.findByLabelText('Members score with')) as HTMLSelectElement).value).toBe('50');
    await h.ux.click(within(section).getByRole('button', { name: 'New rubric from the NGSS practices' }));
    const form = screen.getByRole('form', { name: 'New rubric' });
    expect(within(form).getAllByRole('group')).toHaveLength(8);
    expect((screen.getAllByLabelText('Label')[0] as HTMLInputElement).value).toBe(
      'Asking questions and defining problems',
    );
    await h.ux.click(screen.getByRole('button', { name: 'Save rubric' }));
    expect(await screen.findByText('“NGSS science and engineering practices” created.')).toBeTruthy();
    expect(h.saves[0]).toMatchObject({ id: null, sharedPortfolioId: 7 });
    expect(h.saves[0]!.body.criteria).toHaveLength(8);
  });

  it('shows the server’s limits before sending, and its refusal after', async () => {
    const h = renderSection(async () =>
      Promise.reject(new ApiError(429, 'too_many', 'This portfolio has 20 rubrics, the most it may have.', '')),
    );
    await h.ux.click(await screen.findByRole('button', { name: 'New empty rubric' }));
    fireEvent.change(screen.getByLabelText('Level 1 score (0–100)'), { target: { value: '200' } });
    await h.ux.click(screen.getByRole('button', { name: 'Save rubric' }));
    const summary = screen.getByRole('alert');
    expect(summary.textContent).toContain('The rubric’s name is required.');
    expect(summary.textContent).toContain('Criterion 1, level 1: A level’s score must be from 0 to 100.');
    expect(h.saves).toHaveLength(0);
    // Each field tells its own message, tied to it for screen readers.
    const score = screen.getByLabelText('Level 1 score (0–100)');
    expect(score.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Lab talk' } });
    fireEvent.change(screen.getByLabelText('Label'), { target: { value: 'Talk' } });
    fireEvent.change(screen.getByLabelText('Level 1 label'), { target: { value: 'Low' } });
    fireEvent.change(screen.getByLabelText('Level 2 label'), { target: { value: 'High' } });
    fireEvent.change(score, { target: { value: '1' } });
    expect(screen.queryByRole('alert')).toBeNull();
    await h.ux.click(screen.getByRole('button', { name: 'Save rubric' }));
    expect((await screen.findByRole('alert')).textContent).toContain('the most it may have');
    expect(h.saves).toHaveLength(1);
  });

  it('warns that editing a used rubric makes its next version', async () => {
    const h = renderSection(async () => ({ ...TALK_RUBRIC, version: 2 }));
    await h.ux.click(await screen.findByRole('button', { name: 'Edit Discourse' }));
    expect(screen.getByRole('form', { name: 'Edit “Discourse”' }).textContent).toContain(
      'Saving makes version 2; the scores given so far keep version 1.',
    );
    await h.ux.click(screen.getByRole('button', { name: 'Save rubric' }));
    expect(await screen.findByText('“Discourse” saved as version 2.')).toBeTruthy();
    expect(h.saves[0]).toMatchObject({ id: 50 });
  });
});
