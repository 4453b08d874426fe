/**
 * The scenarios of the shared portfolio form's model test (`sharedPortfolioForm.model.test.tsx`):
 * who opens which form, what the server gives, and how loading and saving can end in each.
 */
import { within } from '@testing-library/react';
import {
  buildBody,
  EMPTY_VALUES,
  parseFormDraft,
  restoredRows,
  rowsForCreate,
  rowsForEdit,
  valuesOf,
} from '../../../src/machines/sharedPortfolioForm/sharedForm.ts';
import type { SharedPortfolioFormInput } from '../../../src/machines/sharedPortfolioForm/sharedPortfolioFormMachine.ts';
import { ACCESS_MESSAGES } from '../../../src/machines/sharedPortfolioForm/sharedPortfolioFormTypes.ts';
import type { SharedPortfolioLoadOutput } from '../../../src/machines/sharedPortfolioLoad/sharedPortfolioLoadMachine.ts';
import type { SharedPortfolio, SharedPortfolioBody } from '../../../src/schemas/sharedPortfolio.ts';
import { toUiError } from '../../../src/services/errors.ts';
import {
  asMember,
  CREATE_INPUT,
  DRAFT_STORED,
  draftOffer,
  EDIT_INPUT,
  field,
  FIELD_LABELS,
  invalidOnServer,
  lee,
  offline,
  portfolio,
  portfolioWithArtifact,
  replaceText,
  TEMPLATE,
  tess,
  type Harness,
} from './sharedPortfolioFormPage.tsx';

export interface Scenario {
  name: string;
  input: SharedPortfolioFormInput;
  /** The portfolio the server gives (edit). */
  loaded?: SharedPortfolio;
  /** A draft of the form kept in the browser before the page opens. */
  draft?: string;
  /** The gesture that changes the fields, and the body they then send. */
  change?: { gesture: (h: Harness) => Promise<void>; body: SharedPortfolioBody };
}

const draft = parseFormDraft(DRAFT_STORED)!;

/** A field typed on the loaded form, and the body Save then sends: the name (create), the PLC's name (edit). */
export const TYPED = {
  create: {
    gesture: (h: Harness) => replaceText(h.ux, field(FIELD_LABELS.name), 'Team'),
    body: buildBody({ ...EMPTY_VALUES, name: 'Team' }, rowsForCreate(TEMPLATE)),
  },
  edit: {
    gesture: (h: Harness) => replaceText(h.ux, field(FIELD_LABELS.plcName), 'Science PLC'),
    body: buildBody({ ...valuesOf(portfolio), plcName: 'Science PLC' }, rowsForEdit(portfolio)),
  },
};

/** The fields as loaded: empty with the template's questions (create), or those of `p` (edit). */
export const loadedFields = (mode: SharedPortfolioFormInput['mode'], p: SharedPortfolio = portfolio) =>
  mode === 'create'
    ? { values: EMPTY_VALUES, rows: rowsForCreate(TEMPLATE) }
    : { values: valuesOf(p), rows: rowsForEdit(p) };

export const SCENARIOS: Scenario[] = [
  { name: 'create, as a PLC lead', input: CREATE_INPUT, change: TYPED.create },
  { name: 'create, as a teacher', input: { mode: 'create', sharedPortfolioId: null, currentUser: tess } },
  { name: 'edit, as the owner', input: EDIT_INPUT, change: TYPED.edit },
  {
    name: 'edit, a draft left by a reload',
    input: EDIT_INPUT,
    draft: DRAFT_STORED,
    change: {
      gesture: (h) => h.ux.click(within(draftOffer()!).getByRole('button', { name: 'Restore' })),
      body: buildBody(draft.values, restoredRows(rowsForEdit(portfolio), draft.rows)),
    },
  },
  {
    name: 'edit, a portfolio with artifacts',
    input: EDIT_INPUT,
    loaded: portfolioWithArtifact,
  },
  {
    name: 'edit, as a member who is not the owner',
    input: { mode: 'edit', sharedPortfolioId: 9, currentUser: tess },
    loaded: asMember,
  },
  { name: 'edit, from an address without an id', input: { mode: 'edit', sharedPortfolioId: null, currentUser: lee } },
];

/** What the server gives on edit. */
export const loadedOf = (scenario: Scenario) => scenario.loaded ?? portfolio;
export const mayEdit = (scenario: Scenario) => loadedOf(scenario).abilities?.edit === true;

/** What loading can end with in the scenario: the form, why the page cannot be shown, why it failed. */
export function loadOutputs(scenario: Scenario): SharedPortfolioLoadOutput[] {
  const create = scenario.input.mode === 'create';
  const p = loadedOf(scenario);
  const fields = loadedFields(scenario.input.mode, p);
  return [
    ...(create || mayEdit(scenario) ? [{ kind: 'loaded' as const, fields, sharedPortfolio: create ? null : p }] : []),
    { kind: 'unavailable', problem: create ? ACCESS_MESSAGES.templateMissing : ACCESS_MESSAGES.notFound },
    { kind: 'failed', error: toUiError(offline) },
  ];
}

/** Why the server refuses a save in the scenario. */
export const saveRefusal = (scenario: Scenario) => (scenario.input.mode === 'create' ? invalidOnServer : offline);
