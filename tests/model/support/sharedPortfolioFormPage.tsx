/**
 * The shared portfolio form page as its two model tests drive it (the form, `sharedPortfolioForm`,
 * and its fields, `sharedPortfolioFields`): the fixtures, the page with its service calls faked,
 * and the checks of the form on screen.
 */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { allowLeave, guardedNavigation, stayHere } from '../../../src/app/navigation/leaveGuard.ts';
import { provideSharedPortfolioForm } from '../../../src/machines/sharedPortfolioForm/provideSharedPortfolioForm.ts';
import {
  choicesTextOf,
  formState,
  rowsForEdit,
  valuesOf,
  type FormErrors,
  type QuestionRow,
  type SummaryValues,
} from '../../../src/machines/sharedPortfolioForm/sharedForm.ts';
import type { SharedPortfolioFormInput } from '../../../src/machines/sharedPortfolioForm/sharedPortfolioFormMachine.ts';
import { GRADES } from '../../../src/schemas/catalog.ts';
import type { Portfolio } from '../../../src/schemas/portfolio.ts';
import type {
  SharedPortfolio,
  SharedPortfolioBody,
  SharedPortfolioListItem,
} from '../../../src/schemas/sharedPortfolio.ts';
import type { Structure } from '../../../src/schemas/structure.ts';
import { writeDraft } from '../../../src/services/drafts.ts';
import { ApiError, NetworkError } from '../../../src/services/errors.ts';
import { currentUser } from '../../../src/services/session.ts';
import { SHARED_PORTFOLIO_ABILITIES } from '../../../src/test/abilityFixtures.ts';
import { mountSharedPortfolioForm } from '../../../src/test/sharedPortfolioFormPageKit.tsx';
import {
  makeSharedArtifact,
  makeSharedPortfolio,
  makeTemplatePortfolio,
  people,
  TEAM_QUESTION,
} from '../../../src/test/sharedFixtures.ts';
import { notify } from '../../../src/views/feedback/toastStore.ts';
import { coverageInspector } from './coverage.ts';
import { controllableActor } from './deferred.ts';
import { makeUser } from './users.ts';

export const lee = makeUser('plcLead', { id: people.lee.id, username: people.lee.username });
export const tess = makeUser('teacher', { id: people.tess.id, username: people.tess.username });

// A small template (core, optional, file and choice questions) keeps the states, and so the test names, short.
export const TEMPLATE: Structure = [
  { key: 'artifactName', text: 'Artifact Name', type: 'shortText', core: true },
  { key: 'fileUpload', text: 'Photos, videos or documents', type: 'fileUpload' },
  { key: 'unitDay', text: 'Day of the unit', type: 'number', min: 0, max: 200, step: 1 },
  { key: 'nextSteps', text: 'What would you do next?', type: 'longText' },
];
export const template: Portfolio = makeTemplatePortfolio({ structure: TEMPLATE });
export const portfolio: SharedPortfolio = makeSharedPortfolio({
  templateStructure: TEMPLATE,
  structure: [TEMPLATE[0]!, TEMPLATE[2]!, TEAM_QUESTION],
});
/** The same portfolio once it holds an artifact: it cannot be deleted then. */
export const portfolioWithArtifact: SharedPortfolio = { ...portfolio, sharedArtifacts: [makeSharedArtifact()] };
/** The same portfolio, seen by a member who is not its owner (not theirs to edit). */
export const asMember: SharedPortfolio = { ...portfolio, abilities: SHARED_PORTFOLIO_ABILITIES.member };
const { sharedArtifacts: _, ...listed } = portfolio;
export const deletedItem: SharedPortfolioListItem = { ...listed, sharedArtifacts: [] };
export const created = makeSharedPortfolio({ id: 42, structure: [], templateStructure: [] });

export const missing = new ApiError(404, 'not_found', 'Not found.', '');
export const offline = new NetworkError();
export const invalidOnServer = new ApiError(
  400,
  'invalid_questions',
  'You have 1 invalid question. Please add the required info and re-submit. Question text is required.',
  '',
);
export const notEmpty = new ApiError(
  400,
  'shared_portfolio_not_empty',
  'A shared portfolio can be deleted only when it has no artifacts.',
  '',
);

/**
 * A draft of the portfolio left by a reload (a PLC name and goals typed, a question switched on,
 * the team question's choices retyped), offered when the form opens again; Restore puts it back.
 */
export const DRAFT_FORM = 'shared-portfolio:9';
export const DRAFT_STORED = formState(
  { ...valuesOf(portfolio), plcName: 'Science PLC', plcGoals: 'Typed before the reload' },
  rowsForEdit(portfolio).map((row) =>
    row.kind === 'template' && row.key === 'nextSteps'
      ? { ...row, included: true }
      : row.kind === 'bonus'
        ? { ...row, choicesText: 'Near, Far' }
        : row,
  ),
);
export function setup(input: SharedPortfolioFormInput, draft?: string) {
  localStorage.clear();
  if (draft) {
    currentUser.value = lee;
    writeDraft(lee.id, DRAFT_FORM, draft, portfolio.updated_at);
  }
  const fakes = {
    fetchTemplate: controllableActor<Portfolio>(),
    fetchSharedPortfolio: controllableActor<SharedPortfolio, { id: number }>(),
    createSharedPortfolio: controllableActor<SharedPortfolio, { body: SharedPortfolioBody }>(),
    updateSharedPortfolio: controllableActor<SharedPortfolio, { id: number; body: SharedPortfolioBody }>(),
    deleteSharedPortfolio: controllableActor<SharedPortfolioListItem, { id: number }>(),
  };
  const navigateToSharedPortfolio = vi.fn<(id: number) => void>();
  const navigateToSharedPortfolios = vi.fn<() => void>();
  const start =
    input.mode === 'create' ? '/shared-portfolios/new' : `/shared-portfolios/${input.sharedPortfolioId ?? 'x'}/edit`;
  const location = memoryLocation({ path: start, record: true });
  // The app's navigation passes the leave guard, as the router's `aroundNav` makes it.
  const navigate = (to: string) => guardedNavigation(location.navigate, to);
  const logic = provideSharedPortfolioForm({
    notify: ({ message, tone }) => notify(message, tone),
    navigateToSharedPortfolio: (id) => {
      navigateToSharedPortfolio(id);
      navigate(`/shared-portfolios/${id}`);
    },
    navigateToSharedPortfolios: () => {
      navigateToSharedPortfolios();
      navigate('/shared-portfolios');
    },
    allowLeave,
    stayHere,
    actors: {
      fetchTemplate: fakes.fetchTemplate.logic,
      fetchSharedPortfolio: fakes.fetchSharedPortfolio.logic,
      createSharedPortfolio: fakes.createSharedPortfolio.logic,
      updateSharedPortfolio: fakes.updateSharedPortfolio.logic,
      deleteSharedPortfolio: fakes.deleteSharedPortfolio.logic,
    },
  });
  mountSharedPortfolioForm(logic, location, input, coverageInspector);
  return {
    fakes,
    navigateToSharedPortfolio,
    navigateToSharedPortfolios,
    location,
    ux: userEvent.setup({ delay: null }),
  };
}

export type Harness = ReturnType<typeof setup>;

/** The inputs of a new shared portfolio's form and of an edit of portfolio 9, both opened by Lee. */
export const CREATE_INPUT: SharedPortfolioFormInput = { mode: 'create', sharedPortfolioId: null, currentUser: lee };
export const EDIT_INPUT: SharedPortfolioFormInput = { mode: 'edit', sharedPortfolioId: 9, currentUser: lee };

/** The page for `input` once the template (create) or the portfolio (edit) is loaded. */
export async function setupLoaded(input: SharedPortfolioFormInput, draft?: string): Promise<Harness> {
  const h = setup(input, draft);
  await act(async () =>
    input.mode === 'create'
      ? h.fakes.fetchTemplate.next().deferred.resolve(template)
      : h.fakes.fetchSharedPortfolio.next().deferred.resolve(portfolio),
  );
  return h;
}

export const FIELD_LABELS = {
  name: 'Shared Portfolio Name',
  subject: 'Subject',
  topic: 'Portfolio Topic',
  plcName: 'PLC Name',
  plcGoals: 'PLC Goals for Shared Portfolio',
} as const;
export const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
export const describedBy = (element: HTMLElement) =>
  element.getAttribute('aria-describedby')
    ? document.getElementById(element.getAttribute('aria-describedby')!)?.textContent
    : undefined;
export const saveButton = () => screen.getByRole('button', { name: 'SAVE' }) as HTMLButtonElement;
/** An alert (toast) with this text is on screen (earlier ones may still be). */
export const expectAlert = (text: string) =>
  expect(screen.getAllByRole('alert').map((a) => a.querySelector('p')?.textContent)).toContain(text);

/** The form can be changed and saved: Save is not busy, the fields are open. */
export function expectFormOpen() {
  expect(saveButton().disabled).toBe(false);
  expect(saveButton().getAttribute('aria-busy')).not.toBe('true');
  expect(field(FIELD_LABELS.name).disabled).toBe(false);
}

/** Loading failed: the page says why and offers Try again. */
export function expectLoadFailed(message: string) {
  const alert = screen.getByRole('alert');
  expect(within(alert).getByText(message)).toBeTruthy();
  expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
}

/** The page cannot be shown: it says why, with no form and nothing to press. */
export function expectUnavailable(problem: string) {
  expect(screen.getByText(problem)).toBeTruthy();
  expect(screen.queryByRole('textbox')).toBeNull();
  expect(screen.queryByRole('button')).toBeNull();
}

/** The form shows the machine's values, switches, team questions and messages. */
export function expectForm(
  { values, rows, errors }: { values: SummaryValues; rows: readonly QuestionRow[]; errors: FormErrors },
  busy: boolean,
) {
  for (const [name, label] of Object.entries(FIELD_LABELS) as [keyof typeof FIELD_LABELS, string][])
    expect(field(label).value).toBe(values[name]);
  const gradeText =
    GRADES.filter((g) => values.grades.includes(g.value))
      .map((g) => g.label)
      .join(', ') || 'Select grade levels';
  expect(screen.getByRole('button', { name: /^Grade Levels/ }).textContent).toBe(gradeText);
  expect(describedBy(field(FIELD_LABELS.name))).toBe(errors.name);
  let number = 0;
  for (const row of rows) {
    if (row.kind === 'template') {
      const sw = screen.getByRole('switch', { name: `Include: ${row.question.text}` });
      expect(sw.getAttribute('aria-checked')).toBe(String(row.included || Boolean(row.question.core)));
      expect(sw.getAttribute('aria-disabled')).toBe(row.question.core || busy ? 'true' : null);
      continue;
    }
    number += 1;
    const text = field(`Text of team question ${number}`);
    const type = field(`Type of team question ${number}`);
    expect(text.value).toBe(row.text);
    expect(type.value).toBe(row.type);
    expect(describedBy(text)).toBe(errors.questions[row.key]?.text);
    expect(describedBy(type)).toBe(errors.questions[row.key]?.type);
    const choices = screen.queryByLabelText(
      `Choices of team question ${number} (separated by commas)`,
    ) as HTMLTextAreaElement | null;
    if (row.type === 'singleSelection' || row.type === 'multipleResponse') {
      expect(choices!.value).toBe(choicesTextOf(row));
      expect(describedBy(choices!)).toBe(errors.questions[row.key]?.choices);
    } else {
      expect(choices).toBeNull();
    }
  }
  expect(screen.queryByLabelText(`Text of team question ${number + 1}`)).toBeNull();
}

/** Replaces the text of a box with one change, as a paste makes it. */
export async function replaceText(ux: Harness['ux'], element: HTMLInputElement | HTMLTextAreaElement, value: string) {
  await ux.clear(element);
  await ux.click(element);
  await ux.paste(value);
  expect(element.value).toBe(value);
}

/** The offer to put a local draft back, while it shows. */
export const draftOffer = () => screen.queryByRole('group', { name: 'Unsaved shared portfolio' });
