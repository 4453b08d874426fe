import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Invitation } from '../../schemas/invitation.ts';
import { ApiError } from '../../services/errors.ts';
import { resetApp } from '../../test/renderApp.tsx';
import { makeInvitation } from '../../test/sharedFixtures.ts';
import { clearToasts } from '../feedback/toastStore.ts';
import {
  bodyRows,
  circle,
  firstColumn,
  myTable,
  plc,
  renderDashboard,
  section,
  sortOf,
  tableOf,
} from '../../test/dashboardPageKit.tsx';
import { USER_ABILITIES } from '../../test/abilityFixtures.ts';

afterEach(() => {
  clearToasts();
  resetApp();
});

describe('Dashboard page', () => {
  describe('researchers', () => {
    it('see the summary counts of the shared portfolios and no My Portfolios table', async () => {
      const { calls } = renderDashboard({
        abilities: USER_ABILITIES.researcher,
        fakes: { shared: async () => [plc, circle] },
      });
      const summary = await screen.findByRole('region', { name: 'Teacher Portfolio Summary' });
      await waitFor(() => expect(within(summary).queryByRole('status')).toBeNull());
      const counts = Object.fromEntries(
        within(summary)
          .getAllByRole('term')
          .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
      );
      // 2 portfolios; 2 + 1 artifacts; 3 + 7 comments; Lee, Tess, Theo and Pat.
      expect(counts).toEqual({ Portfolios: '2', Artifacts: '3', Comments: '10', Teachers: '4' });
      expect(screen.queryByRole('region', { name: 'My Portfolios' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Add Portfolio' })).toBeNull();
      expect(calls.listPortfolios).toBe(0);
      // Researchers see the shared table too.
      expect(firstColumn(tableOf('Shared Portfolios'))).toEqual([
        'Engineering Design Circle',
        'Grades 5–7 Science PLC',
      ]);
    });

    it('can open from each summary card the list it counts', async () => {
      const { ux } = renderDashboard({
        abilities: USER_ABILITIES.researcher,
        fakes: { shared: async () => [plc, circle] },
      });
      const summary = await screen.findByRole('region', { name: 'Teacher Portfolio Summary' });
      const links = await within(summary).findAllByRole('link');
      expect(links.map((a) => [a.getAttribute('aria-label'), a.getAttribute('href')])).toEqual([
        ['Portfolios: 2. See the shared portfolios', '#shared-portfolios'],
        ['Artifacts: 3. See the artifacts of each shared portfolio', '#shared-portfolios'],
        ['Comments: 10. See the comments of each shared portfolio', '#shared-portfolios'],
        ['Teachers: 4. See the people in Manage Users', '/users'],
      ]);
      const table = screen.getByRole('region', { name: 'Shared Portfolios' });
      expect(table.id).toBe('shared-portfolios');
      await ux.click(links[1]!);
      expect(document.activeElement).toBe(table);
    });

    it('see zeros when there are no shared portfolios', async () => {
      renderDashboard({ abilities: USER_ABILITIES.researcher });
      const summary = await screen.findByRole('region', { name: 'Teacher Portfolio Summary' });
      await waitFor(() =>
        expect(
          within(summary)
            .getAllByRole('definition')
            .map((dd) => dd.textContent),
        ).toEqual(['0', '0', '0', '0']),
      );
      expect(screen.queryByRole('region', { name: 'Shared Portfolios' })).toBeNull();
      // No link to a table that is not there.
      expect(
        within(summary)
          .getAllByRole('link')
          .map((a) => a.getAttribute('href')),
      ).toEqual(['/users']);
    });

    it('are told once when the shared portfolios could not be loaded', async () => {
      let attempts = 0;
      const { ux } = renderDashboard({
        abilities: USER_ABILITIES.researcher,
        fakes: {
          shared: async () => {
            attempts += 1;
            if (attempts === 1) throw new ApiError(503, 'unavailable', 'Try later.', '');
            return [plc];
          },
        },
      });
      const summary = await screen.findByRole('region', { name: 'Teacher Portfolio Summary' });
      const alert = await within(summary).findByRole('alert');
      expect(within(alert).getByText('The summary could not be loaded')).toBeTruthy();
      expect(screen.getAllByRole('button', { name: 'Try again' })).toHaveLength(1);
      await ux.click(within(alert).getByRole('button', { name: 'Try again' }));
      await waitFor(() =>
        expect(
          within(summary)
            .getAllByRole('definition')
            .map((dd) => dd.textContent),
        ).toEqual(['1', '2', '3', '3']),
      );
      expect(firstColumn(tableOf('Shared Portfolios'))).toEqual(['Grades 5–7 Science PLC']);
    });
  });

  describe('Shared Portfolios and invitations', () => {
    it('are left out when there are none', async () => {
      renderDashboard();
      await waitFor(myTable);
      await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading shared portfolios' })).toBeNull());
      await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading invitations' })).toBeNull());
      expect(screen.queryByRole('heading', { name: 'Shared Portfolios' })).toBeNull();
      expect(screen.queryByRole('heading', { name: 'Invitations to Join Shared Portfolios' })).toBeNull();
    });

    it('list the shared portfolios newest first, sortable, with links', async () => {
      const { ux } = renderDashboard({ fakes: { shared: async () => [plc, circle] } });
      const table = await waitFor(() => tableOf('Shared Portfolios'));
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((th) => th.textContent),
      ).toEqual([
        'Shared Portfolio Name',
        'PLC Name',
        'Date Created',
        'Grade Levels',
        'Subject',
        'Portfolio Topic',
        'Artifacts',
        'Comments',
      ]);
      expect(sortOf(table)).toEqual([['Date Created', 'descending']]);
      expect(bodyRows(table)).toEqual([
        ['Engineering Design Circle', 'Makers', '03/01/26', 'Kindergarten', 'Science', 'Forces and motion', '1', '7'],
        [
          'Grades 5–7 Science PLC',
          'Middle school science',
          '02/01/26',
          '5th Grade, 6th Grade',
          'Science',
          'Forces and motion',
          '2',
          '3',
        ],
      ]);
      expect(within(table).getByRole('link', { name: 'Grades 5–7 Science PLC' }).getAttribute('href')).toBe(
        '/shared-portfolios/31',
      );
      await ux.click(within(table).getByRole('button', { name: 'Artifacts' }));
      expect(firstColumn(table)).toEqual(['Grades 5–7 Science PLC', 'Engineering Design Circle']);
      expect(sortOf(table)).toEqual([['Artifacts', 'descending']]);
      await ux.click(within(table).getByRole('button', { name: 'Comments' }));
      expect(firstColumn(table)).toEqual(['Engineering Design Circle', 'Grades 5–7 Science PLC']);
      await ux.click(within(table).getByRole('button', { name: 'PLC Name' }));
      expect(firstColumn(table)).toEqual(['Engineering Design Circle', 'Grades 5–7 Science PLC']);
      expect(sortOf(table)).toEqual([['PLC Name', 'ascending']]);
    });

    it('list the invitations with a link to each, skipping any whose shared portfolio is gone', async () => {
      const older = makeInvitation({ id: 41, created_at: '2026-02-02T10:00:00.000Z' });
      const newer = makeInvitation({
        id: 42,
        from: null,
        created_at: '2026-03-03T10:00:00.000Z',
        sharedPortfolio: { ...older.sharedPortfolio, id: 32, name: 'Engineering Design Circle', plcName: 'Makers' },
      });
      const dangling = { ...makeInvitation({ id: 43 }), sharedPortfolio: null } as unknown as Invitation;
      renderDashboard({ fakes: { invitations: async () => [older, dangling, newer] } });
      const table = await waitFor(() => tableOf('Invitations to Join Shared Portfolios'));
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((th) => th.textContent),
      ).toEqual(['Shared Portfolio Name', 'Invite From', 'PLC Name', 'Date']);
      expect(bodyRows(table)).toEqual([
        ['Engineering Design Circle', '', 'Makers', '03/03/26'],
        ['Grades 5–7 Science PLC', 'Lee Lead', 'Middle school science', '02/02/26'],
      ]);
      expect(within(table).getByRole('link', { name: 'Engineering Design Circle' }).getAttribute('href')).toBe(
        '/invitation/42',
      );
    });

    it('each tell their own failure with a retry', async () => {
      const fails = { shared: true, invitations: true };
      const { ux } = renderDashboard({
        fakes: {
          shared: async () => {
            if (fails.shared) throw new ApiError(500, 'internal_error', 'Shared broke.', '');
            return [plc];
          },
          invitations: async () => {
            if (fails.invitations) throw new ApiError(500, 'internal_error', 'Invitations broke.', '');
            return [makeInvitation()];
          },
        },
      });
      const sharedAlert = await within(await screen.findByRole('region', { name: 'Shared Portfolios' })).findByRole(
        'alert',
      );
      const invitationsAlert = await within(section('Invitations to Join Shared Portfolios')).findByRole('alert');
      expect(within(sharedAlert).getByText('The shared portfolios could not be loaded')).toBeTruthy();
      expect(within(sharedAlert).getByText('Shared broke.')).toBeTruthy();
      expect(within(invitationsAlert).getByText('The invitations could not be loaded')).toBeTruthy();
      // My Portfolios is unaffected.
      await waitFor(() => expect(firstColumn(myTable())).toHaveLength(3));
      fails.invitations = false;
      await ux.click(within(invitationsAlert).getByRole('button', { name: 'Try again' }));
      await waitFor(() => expect(tableOf('Invitations to Join Shared Portfolios')).toBeTruthy());
      expect(within(section('Shared Portfolios')).getByRole('alert')).toBeTruthy();
      fails.shared = false;
      await ux.click(within(section('Shared Portfolios')).getByRole('button', { name: 'Try again' }));
      await waitFor(() => expect(firstColumn(tableOf('Shared Portfolios'))).toEqual(['Grades 5–7 Science PLC']));
    });
  });
});
