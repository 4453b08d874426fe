import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { Portfolio, PortfolioListItem, PortfolioUpdateBody } from '../../schemas/portfolio.ts';
import { ApiError } from '../../services/errors.ts';
import {
  listItemOf,
  makeArtifact,
  makePortfolio,
  notFoundError,
  renderPortfolioEdit,
} from '../../test/portfolioHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';

function setup(
  portfolio: Portfolio | null,
  options: {
    update?: (body: PortfolioUpdateBody) => Promise<Portfolio>;
    remove?: () => Promise<PortfolioListItem>;
  } = {},
) {
  const calls = { update: [] as PortfolioUpdateBody[], remove: 0 };
  const rendered = renderPortfolioEdit({
    portfolioId: portfolio?.id ?? 99,
    actors: {
      getPortfolio: fromPromise<Portfolio>(async () => {
        if (!portfolio) throw notFoundError();
        return portfolio;
      }),
      updatePortfolio: fromPromise<Portfolio, { portfolioId: number; body: PortfolioUpdateBody }>(async ({ input }) => {
        calls.update.push(input.body);
        return options.update ? options.update(input.body) : { ...portfolio!, ...(input.body as Partial<Portfolio>) };
      }),
      deletePortfolio: fromPromise<PortfolioListItem>(async () => {
        calls.remove += 1;
        return options.remove ? options.remove() : listItemOf(portfolio!);
      }),
    },
  });
  return { ...rendered, calls };
}

const empty = () =>
  makePortfolio({ id: 5, name: 'My Portfolio 1', grades: ['3rd'], subject: '', topic: '', artifacts: [] });
const full = () =>
  makePortfolio({
    id: 6,
    name: 'Forces and Motion',
    grades: ['5th'],
    subject: 'Science',
    topic: 'Pushes',
    artifacts: [makeArtifact({ portfolio: { id: 6 } })],
  });

afterEach(clearToasts);

describe('Edit portfolio', () => {
  it('shows the portfolio’s name, grades, subject and topic', async () => {
    setup(full());
    expect(((await screen.findByRole('textbox', { name: 'Portfolio Name' })) as HTMLInputElement).value).toBe(
      'Forces and Motion',
    );
    expect(screen.getByRole('button', { name: 'Grade Levels 5th Grade' }).getAttribute('aria-expanded')).toBe('false');
    const subject = screen.getByRole('combobox', { name: 'Subject' }) as HTMLSelectElement;
    expect(subject.value).toBe('Science');
    expect([...subject.options].map((o) => o.textContent)).toEqual([
      'No subject',
      'Arts',
      'History',
      'Language Arts',
      'Mathematics',
      'PE',
      'Science',
    ]);
    expect((screen.getByRole('textbox', { name: 'Portfolio Topic' }) as HTMLTextAreaElement).value).toBe('Pushes');
  });

  it('requires a name, then saves the trimmed name with the other fields and shows the portfolio', async () => {
    const { ux, calls, showPortfolio } = setup(full());
    const name = await screen.findByRole('textbox', { name: 'Portfolio Name' });
    await ux.clear(name);
    await ux.type(name, '   ');
    await ux.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('A name is required.')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
    expect(calls.update).toEqual([]);

    await ux.type(name, 'Forces, again  ');
    expect(screen.queryByText('A name is required.')).toBeNull();
    await ux.click(screen.getByRole('button', { name: 'Grade Levels 5th Grade' }));
    const grades = screen.getByRole('group', { name: 'Grade Levels' });
    expect(within(grades).getAllByRole('checkbox')).toHaveLength(14);
    await ux.click(within(grades).getByRole('checkbox', { name: 'Kindergarten' }));
    await ux.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Grade Levels' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Grade Levels Kindergarten, 5th Grade' })).toBeTruthy();
    await ux.selectOptions(screen.getByRole('combobox', { name: 'Subject' }), 'Mathematics');
    await ux.type(screen.getByRole('textbox', { name: 'Portfolio Topic' }), ' and pulls');
    await ux.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(showPortfolio).toHaveBeenCalledWith(6));
    expect(calls.update).toEqual([
      { name: 'Forces, again', grades: ['K', '5th'], subject: 'Mathematics', topic: 'Pushes and pulls' },
    ]);
    expect(screen.getByText('Successfully edited portfolio')).toBeTruthy();
  });

  it('Cancel goes back to the portfolio without saving', async () => {
    const { ux, calls, showPortfolio } = setup(full());
    await ux.type(await screen.findByRole('textbox', { name: 'Portfolio Name' }), ' changed');
    await ux.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(showPortfolio).toHaveBeenCalledWith(6);
    expect(calls.update).toEqual([]);
  });

  it('a refused save alerts the server’s message and keeps the form', async () => {
    const { ux } = setup(full(), {
      update: async () => {
        throw new ApiError(400, 'validation_error', 'The topic must be at most 500 characters.', '');
      },
    });
    await ux.click(await screen.findByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The topic must be at most 500 characters.');
    expect(((await screen.findByRole('textbox', { name: 'Portfolio Name' })) as HTMLInputElement).value).toBe(
      'Forces and Motion',
    );
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('offers Delete Portfolio only while the portfolio has no artifacts', async () => {
    setup(full());
    await screen.findByRole('textbox', { name: 'Portfolio Name' });
    expect(screen.queryByRole('button', { name: 'Delete Portfolio' })).toBeNull();
    expect(screen.getByText('A portfolio can be deleted only when it has no artifacts.')).toBeTruthy();
  });

  it('deletes an empty portfolio after the confirmation, then goes back to My Portfolios', async () => {
    const { ux, calls, showPortfolioList } = setup(empty());
    await ux.click(await screen.findByRole('button', { name: 'Delete Portfolio' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete Portfolio' });
    expect(confirm.textContent).toContain('Do you want to delete My Portfolio 1?');
    await ux.click(within(confirm).getByRole('button', { name: 'NO' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.remove).toBe(0);

    await ux.click(screen.getByRole('button', { name: 'Delete Portfolio' }));
    await ux.click(
      within(screen.getByRole('alertdialog', { name: 'Delete Portfolio' })).getByRole('button', { name: 'YES' }),
    );
    await waitFor(() => expect(showPortfolioList).toHaveBeenCalledTimes(1));
    expect(calls.remove).toBe(1);
    expect(screen.getByText('Successfully deleted portfolio')).toBeTruthy();
  });

  it('a refused delete alerts the reason and stays', async () => {
    const { ux, showPortfolioList } = setup(empty(), {
      remove: async () => {
        throw new ApiError(400, 'has_artifacts', 'A portfolio can be deleted only when it has no artifacts.', '');
      },
    });
    await ux.click(await screen.findByRole('button', { name: 'Delete Portfolio' }));
    await ux.click(
      within(screen.getByRole('alertdialog', { name: 'Delete Portfolio' })).getByRole('button', { name: 'YES' }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'A portfolio can be deleted only when it has no artifacts.',
    );
    expect(screen.getByRole('textbox', { name: 'Portfolio Name' })).toBeTruthy();
    expect(showPortfolioList).not.toHaveBeenCalled();
  });

  it('says “Portfolio not found.” for a portfolio that is not there', async () => {
    setup(null);
    expect((await screen.findByRole('alert')).textContent).toBe('Portfolio not found.');
    expect(screen.getByRole('link', { name: 'Back to My Portfolios' }).getAttribute('href')).toBe('/my-portfolios');
    expect(screen.queryByRole('textbox', { name: 'Portfolio Name' })).toBeNull();
  });
});
