/** The shared portfolio form's messages, input, context and events (see `sharedPortfolioFormMachine`). */
import type { SharedPortfolio, SharedPortfolioBody } from '../../schemas/sharedPortfolio.ts';
import type { Me } from '../../schemas/user.ts';
import type { UiError } from '../../services/errors.ts';
import type { SharedPortfolioFieldsInput, SharedPortfolioFieldsReport } from './sharedPortfolioFieldsMachine.ts';

/** Why the page cannot be shown (spec §5, page access). */
export const ACCESS_MESSAGES = {
  noPermission: 'You do not have permission to access this page.',
  notFound: 'Shared portfolio not found.',
  templateMissing: 'Portfolio template not found.',
} as const;

export const SAVED_MESSAGES = {
  created: 'Successfully created shared portfolio',
  updated: 'Successfully edited shared portfolio',
  deleted: 'Successfully deleted shared portfolio',
} as const;

export type FormMode = 'create' | 'edit';

export interface SharedPortfolioFormInput {
  mode: FormMode;
  /** The portfolio to edit; `null` when the address holds no valid id (ignored on create). */
  sharedPortfolioId: number | null;
  /** The signed-in user (the server's abilities say whether they may create one). */
  currentUser: Pick<Me, 'id' | 'abilities'> | null;
}

export interface SharedPortfolioFormContext {
  mode: FormMode;
  sharedPortfolioId: number | null;
  currentUser: Pick<Me, 'id' | 'abilities'> | null;
  /** How many saves were refused, by the form's checks or the server (the view takes the user to the first message after each). */
  refusals: number;
  /** Whether the fields hold changes not saved yet (as the fields last said). */
  unsaved: boolean;
  /** The portfolio being edited, as loaded. */
  sharedPortfolio: SharedPortfolio | null;
  /** Why the page cannot be shown. */
  problem: string | null;
  /** Why loading failed. */
  error: UiError | null;
  /** Why the server refused the last save or delete (shown at the top of the form, not as a toast). */
  saveError: string | null;
  /** What the last save sent (the fields' body when they were valid). */
  body: SharedPortfolioBody | null;
  /** The fields as loaded (the template's questions, or the portfolio being edited). */
  loaded: SharedPortfolioFieldsInput | null;
}

/** What the page asks of the form (the fields are asked directly, see `sharedPortfolioFieldsMachine`). */
export type SharedPortfolioFormEvent =
  | SharedPortfolioFieldsReport
  | { type: 'form.cancel' }
  | { type: 'portfolio.delete' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  /** The user is about to leave the page (a link, Back): the machine allows it or asks first. */
  | { type: 'leave.request' }
  | { type: 'leave.confirm' }
  | { type: 'leave.stay' }
  | { type: 'retry' };
