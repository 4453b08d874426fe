import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  portfolioEditMachine,
  type PortfolioEditContext,
  type PortfolioEditEvent,
} from '../../src/machines/portfolioEdit/portfolioEditMachine.ts';
import type { Portfolio, PortfolioListItem, PortfolioUpdateBody } from '../../src/schemas/portfolio.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { listItemOf, makePortfolio, notFoundError, renderPortfolioEdit } from '../../src/test/portfolioHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { coverageInspector, createPathModel } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(portfolioEditMachine);
afterEach(clearToasts);

const portfolio = makePortfolio({
  id: 5,
  name: 'My Portfolio 1',
  grades: ['3rd'],
  subject: 'Science',
  topic: 'Plants',
  artifacts: [],
});
const offline = new NetworkError();
const refused = new ApiError(400, 'validation_error', 'The name must be at most 200 characters.', '');

interface Snapshot {
  context: PortfolioEditContext;
  matches: (value: string) => boolean;
  can: (event: PortfolioEditEvent) => boolean;
}

const actorEvent = (type: string, payload: Record<string, unknown>) =>
  ({ type, ...payload }) as unknown as PortfolioEditEvent;

/** User gestures and service answers of a state; typing starts only from the form as loaded, to keep the paths few. */
function events(snapshot: unknown): PortfolioEditEvent[] {
  const s = snapshot as Snapshot;
  const { values, attempts } = s.context;
  const untouched = values.name === portfolio.name && values.grades.length === 1 && attempts === 0;
  const list: PortfolioEditEvent[] = [];
  if (s.matches('loading')) {
    list.push(
      actorEvent('xstate.done.actor.getPortfolio', { output: portfolio }),
      actorEvent('xstate.error.actor.getPortfolio', { error: notFoundError() }),
      actorEvent('xstate.error.actor.getPortfolio', { error: offline }),
    );
  }
  if (s.matches('loadFailed')) list.push({ type: 'retry' });
  if (s.matches('editing')) {
    // A refused submit counts an attempt: once is enough.
    if (attempts === 0 || values.name !== '') list.push({ type: 'form.submit' });
    if (untouched) {
      list.push(
        { type: 'field.change', field: 'name', value: '' },
        { type: 'grades.change', grades: ['K', '3rd'] },
        { type: 'form.cancel' },
        { type: 'delete.request' },
        { type: 'leave.request' },
      );
    }
    if (values.name === '')
      list.push({ type: 'field.change', field: 'name', value: 'Renamed' }, { type: 'leave.request' });
  }
  if (s.matches('confirmingLeave')) list.push({ type: 'leave.stay' }, { type: 'leave.confirm' });
  if (s.matches('saving')) {
    list.push(
      actorEvent('xstate.done.actor.updatePortfolio', { output: portfolio }),
      actorEvent('xstate.error.actor.updatePortfolio', { error: refused }),
    );
  }
  if (s.matches('confirmingDelete')) list.push({ type: 'delete.cancel' }, { type: 'delete.confirm' });
  if (s.matches('deleting')) {
    list.push(
      actorEvent('xstate.done.actor.deletePortfolio', { output: listItemOf(portfolio) }),
      actorEvent('xstate.error.actor.deletePortfolio', { error: refused }),
    );
  }
  return list.filter((event) => s.can(event));
}

function setup() {
  const fakes = {
    getPortfolio: controllableActor<Portfolio, { portfolioId: number }>(),
    updatePortfolio: controllableActor<Portfolio, { portfolioId: number; body: PortfolioUpdateBody }>(),
    deletePortfolio: controllableActor<PortfolioListItem, { portfolioId: number }>(),
  };
  const rendered = renderPortfolioEdit({
    portfolioId: 5,
    actors: {
      getPortfolio: fakes.getPortfolio.logic,
      updatePortfolio: fakes.updatePortfolio.logic,
      deletePortfolio: fakes.deletePortfolio.logic,
    },
    inspect: coverageInspector,
  });
  return { ...rendered, fakes };
}

const nameField = () => screen.getByRole('textbox', { name: 'Portfolio Name' }) as HTMLInputElement;

/** What a user sees of the edit page (and where the app was asked to go). */
interface EditView {
  loading: boolean;
  problem: string | null;
  form: {
    name: string;
    grades: string | null;
    subject: string;
    nameError: boolean;
    save: 'ready' | 'busy' | 'disabled';
  } | null;
  confirm: { question: string; answering: boolean } | null;
  /** 'Leave this page? Your changes are not saved.' */
  leaveQuestion: boolean;
  /** The app went to another page. */
  elsewhere: boolean;
  toast: string | null;
  wentTo: 'portfolio' | 'list' | null;
}

const GRADE_TEXT: Record<string, string> = { K: 'Kindergarten', '3rd': '3rd Grade' };

/** The view a state of the edit page must produce. */
function expectedView(s: Snapshot): EditView {
  const { values, errors } = s.context;
  const none: EditView = {
    loading: false,
    problem: null,
    form: null,
    confirm: null,
    leaveQuestion: false,
    elsewhere: false,
    toast: null,
    wentTo: null,
  };
  if (s.matches('loading')) return { ...none, loading: true };
  if (s.matches('notFound')) return { ...none, problem: 'Portfolio not found.' };
  if (s.matches('loadFailed')) return { ...none, problem: 'The portfolio could not be loaded' };
  if (s.matches('saved'))
    return { ...none, elsewhere: true, toast: 'Successfully edited portfolio', wentTo: 'portfolio' };
  if (s.matches('deleted'))
    return { ...none, elsewhere: true, toast: 'Successfully deleted portfolio', wentTo: 'list' };
  // Cancel goes to the portfolio; a header link elsewhere.
  if (s.matches('leaving')) return { ...none, elsewhere: true, wentTo: leftBy.current };
  const busy = s.matches('saving') || s.matches('deleting');
  return {
    ...none,
    form: {
      name: values.name,
      grades: `Grade Levels ${values.grades.map((g) => GRADE_TEXT[g]).join(', ')}`,
      subject: values.subject,
      nameError: Boolean(errors.name),
      save: s.matches('saving') ? 'busy' : busy ? 'disabled' : 'ready',
    },
    confirm:
      s.matches('confirmingDelete') || s.matches('deleting')
        ? { question: 'Do you want to delete My Portfolio 1?', answering: s.matches('deleting') }
        : null,
    leaveQuestion: s.matches('confirmingLeave'),
  };
}

/** How the current path left the page: Cancel shows the portfolio, a header link goes elsewhere. */
const leftBy: { current: 'portfolio' | null } = { current: null };

/** The view on screen. */
function observedView(h: ReturnType<typeof setup>): EditView {
  const problem = screen.queryAllByRole('alert').find((el) => !el.closest('[aria-label="Notifications"]'));
  const name = screen.queryByRole('textbox', { name: 'Portfolio Name' }) as HTMLInputElement | null;
  const save = screen.queryByRole('button', { name: 'Save' }) as HTMLButtonElement | null;
  const dialog = screen.queryByRole('alertdialog', { name: 'Delete Portfolio' });
  const grades = screen.queryByRole('button', { name: /^Grade Levels/ });
  const successToast = within(screen.getByLabelText('Notifications')).queryAllByRole('status')[0];
  return {
    loading: screen.queryByRole('status', { name: 'Loading portfolio' }) !== null,
    problem: problem ? (problem.querySelector('h2')?.textContent ?? problem.textContent) : null,
    form:
      name && save
        ? {
            name: name.value,
            grades: grades ? `Grade Levels ${grades.querySelector('span')?.textContent ?? ''}` : null,
            subject: (screen.getByRole('combobox', { name: 'Subject' }) as HTMLSelectElement).value,
            nameError: screen.queryByText('A name is required.') !== null,
            save: save.getAttribute('aria-busy') === 'true' ? 'busy' : save.disabled ? 'disabled' : 'ready',
          }
        : null,
    confirm: dialog
      ? {
          question: dialog.querySelector('h2 + div')?.textContent ?? '',
          answering: (within(dialog).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled,
        }
      : null,
    leaveQuestion:
      screen
        .queryByRole('alertdialog', { name: 'Leave this page?' })
        ?.textContent?.includes('Your changes are not saved.') ?? false,
    elsewhere: screen.queryByText('Another page') !== null,
    toast: successToast?.querySelector('p')?.textContent ?? null,
    wentTo:
      h.showPortfolioList.mock.calls.length > 0
        ? 'list'
        : h.showPortfolio.mock.calls.some(([id]) => id === 5)
          ? 'portfolio'
          : null,
  };
}

describe('portfolioEdit model (an empty portfolio)', () => {
  const model = createPathModel(portfolioEditMachine, { input: { portfolioId: 5 }, events });
  const paths = model.getShortestPaths();
  it('has paths to every state', () => {
    expect(paths.length).toBeGreaterThan(8);
  });
  for (const path of paths) {
    const name = path.steps.map((step) => step.event.type).join(' → ');
    it(`reaches ${JSON.stringify(path.state.value)}: ${name}`, async () => {
      leftBy.current = null;
      const h = setup();
      const ux = h.ux;
      let checked = 0;
      await path.test({
        states: {
          '*': async (state) => {
            const expected = expectedView(state as unknown as Snapshot);
            await waitFor(() => expect(observedView(h)).toEqual(expected));
            checked += 1;
          },
        },
        events: {
          'xstate.done.actor.getPortfolio': async () => {
            const call = h.fakes.getPortfolio.next();
            expect(call.input.portfolioId).toBe(5);
            await act(async () => call.deferred.resolve(portfolio));
          },
          'xstate.error.actor.getPortfolio': async (step) => {
            const { error } = step.event as unknown as { error: unknown };
            await act(async () => h.fakes.getPortfolio.next().deferred.reject(error));
          },
          'xstate.done.actor.updatePortfolio': async () => {
            const call = h.fakes.updatePortfolio.next();
            expect(call.input.body.name).toBe(call.input.body.name?.trim());
            await act(async () => call.deferred.resolve(portfolio));
          },
          'xstate.error.actor.updatePortfolio': async () => {
            await act(async () => h.fakes.updatePortfolio.next().deferred.reject(refused));
            expect((await screen.findByRole('alert')).textContent).toContain(refused.message);
          },
          'xstate.done.actor.deletePortfolio': async () => {
            await act(async () => h.fakes.deletePortfolio.next().deferred.resolve(listItemOf(portfolio)));
          },
          'xstate.error.actor.deletePortfolio': async () => {
            await act(async () => h.fakes.deletePortfolio.next().deferred.reject(refused));
            expect((await screen.findByRole('alert')).textContent).toContain(refused.message);
          },
          retry: async () => {
            await ux.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
          },
          'field.change': async (step) => {
            const { value } = step.event as Extract<PortfolioEditEvent, { type: 'field.change' }>;
            await ux.clear(nameField());
            if (value) await ux.type(nameField(), value);
          },
          'grades.change': async () => {
            await ux.click(screen.getByRole('button', { name: /^Grade Levels/ }));
            await ux.click(
              within(screen.getByRole('group', { name: 'Grade Levels' })).getByRole('checkbox', {
                name: 'Kindergarten',
              }),
            );
            await ux.keyboard('{Escape}');
          },
          'form.submit': async () => {
            await ux.click(screen.getByRole('button', { name: 'Save' }));
          },
          'form.cancel': async () => {
            // Cancel leaves for the portfolio without saving, without a question.
            leftBy.current = 'portfolio';
            await ux.click(screen.getByRole('button', { name: 'Cancel' }));
            expect(h.location.history.at(-1)).toBe('/my-portfolios/5');
          },
          'leave.request': async () => {
            await ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
          },
          'leave.stay': async () => {
            await ux.click(
              within(screen.getByRole('alertdialog', { name: 'Leave this page?' })).getByRole('button', {
                name: 'Stay on this page',
              }),
            );
            expect(h.location.history.at(-1)).toBe('/my-portfolios/5/edit');
          },
          'leave.confirm': async () => {
            await ux.click(
              within(screen.getByRole('alertdialog', { name: 'Leave this page?' })).getByRole('button', {
                name: 'Leave without saving',
              }),
            );
            expect(h.location.history.at(-1)).toBe('/dashboard');
          },
          'delete.request': async () => {
            await ux.click(screen.getByRole('button', { name: 'Delete Portfolio' }));
          },
          'delete.cancel': async () => {
            await ux.click(
              within(screen.getByRole('alertdialog', { name: 'Delete Portfolio' })).getByRole('button', { name: 'NO' }),
            );
          },
          'delete.confirm': async () => {
            await ux.click(
              within(screen.getByRole('alertdialog', { name: 'Delete Portfolio' })).getByRole('button', {
                name: 'YES',
              }),
            );
          },
        },
      });
      expect(checked).toBe(path.steps.length);
    });
  }
});
