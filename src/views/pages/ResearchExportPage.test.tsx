import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { ExportOptions } from '../../machines/researchExport/researchExportMachine.ts';
import {
  CONSENT_REQUIRED_MESSAGE,
  CONSENT_STATEMENT,
  RANGE_ORDER_MESSAGE,
  type ResearchExportRecord,
} from '../../schemas/researchExport.ts';
import { NetworkError } from '../../services/errors.ts';
import { makeAccount } from '../../test/portfolioHarness.tsx';
import { makeExportRecord, renderResearchExport } from '../../test/researchHarness.tsx';
import { DOWNLOAD_STARTED_MESSAGE, ONLY_RESEARCHERS_EXPORT_MESSAGE } from './ResearchExportPage.tsx';

const researcher = makeAccount(4, 'Rita Researcher', 'researcher');
const OPTIONS: ExportOptions = {
  teachers: [makeAccount(7, 'Tess Teacher'), makeAccount(8, 'Lee Lead', 'plcLead')],
  sharedPortfolios: [
    { id: 32, name: 'Science PLC' },
    { id: 31, name: 'Grade 5 PLC' },
  ],
  exports: [
    makeExportRecord({
      id: 2,
      parameters: {
        identities: 'included',
        consentConfirmed: true,
        from: '2026-01-01',
        to: '2026-02-01',
        sharedPortfolios: [31],
        teachers: [7, 8],
      },
      rowCounts: { teachers: 2, comments: 1200 },
    }),
    makeExportRecord({ id: 1, status: 'cancelled', rowCounts: {} }),
  ],
};

function setup({
  user = researcher,
  log = async () => OPTIONS.exports,
}: { user?: typeof researcher; log?: () => Promise<ResearchExportRecord[]> } = {}) {
  let logReads = 0;
  const h = renderResearchExport({
    user,
    actors: {
      loadOptions: fromPromise(async () => OPTIONS),
      refreshLog: fromPromise(async () => {
        logReads += 1;
        return log();
      }),
    },
  });
  return { ...h, logReads: () => logReads };
}

const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('Research Export', () => {
  it('tells anyone but a researcher that only researchers export, and loads nothing', () => {
    setup({ user: makeAccount(7, 'Tess Teacher') });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Research Export');
    expect(screen.getByText(ONLY_RESEARCHERS_EXPORT_MESSAGE)).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('shows the log with who, when, the filters in words, identities, status and rows', async () => {
    setup();
    const table = await screen.findByRole('table', { name: 'Export log' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      [
        expect.stringMatching(/2026/),
        'Rita Researcher',
        'created 2026-01-01 to 2026-02-01; Grade 5 PLC; 2 teachers',
        'Included',
        'Completed',
        '1,202',
      ],
      [expect.stringMatching(/2026/), 'Rita Researcher', 'Everything', 'Pseudonymous', 'Cancelled', '0'],
    ]);
  });

  it('downloads the package with the chosen dates, shared portfolios and teachers, then reads the log again', async () => {
    const h = setup();
    await screen.findByRole('form', { name: 'Research export filters' });
    fireEvent.change(screen.getByLabelText('Created from'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('Created to'), { target: { value: '2026-03-31' } });
    await h.ux.click(screen.getByRole('button', { name: /^Shared portfolios/ }));
    // By name, whatever order the server listed them in.
    const shared = screen.getByRole('group', { name: 'Shared portfolios' });
    expect(
      within(shared)
        .getAllByRole('checkbox')
        .map((c) => c.parentElement!.textContent),
    ).toEqual(['Grade 5 PLC', 'Science PLC']);
    await h.ux.click(within(shared).getByRole('checkbox', { name: 'Science PLC' }));
    await h.ux.click(screen.getByRole('button', { name: /^Teachers/ }));
    await h.ux.click(
      within(screen.getByRole('group', { name: 'Teachers' })).getByRole('checkbox', { name: 'Teacher, Tess' }),
    );
    await h.ux.click(screen.getByRole('button', { name: 'Download package' }));
    expect(h.downloads).toHaveLength(1);
    expect(new URL(h.downloads[0]!).pathname).toBe('/api/v1/research/export');
    expect(queryOf(h.downloads[0]!)).toEqual({
      from: '2026-03-01',
      to: '2026-03-31',
      sharedPortfolios: '32',
      teachers: '7',
      identities: 'pseudonymous',
    });
    expect(screen.getByRole('status').textContent).toBe(DOWNLOAD_STARTED_MESSAGE);
    await waitFor(() => expect(h.logReads()).toBe(1));
  });

  it('refuses an end date before the start date, saying why, and downloads nothing', async () => {
    const h = setup();
    await screen.findByRole('form', { name: 'Research export filters' });
    fireEvent.change(screen.getByLabelText('Created from'), { target: { value: '2026-03-02' } });
    fireEvent.change(screen.getByLabelText('Created to'), { target: { value: '2026-03-01' } });
    await h.ux.click(screen.getByRole('button', { name: 'Download package' }));
    expect(screen.getByText(RANGE_ORDER_MESSAGE)).toBeTruthy();
    expect(screen.getByLabelText('Created to').getAttribute('aria-invalid')).toBe('true');
    expect(h.downloads).toEqual([]);
  });

  it('names people only once the consent is confirmed, and asks again after going back to pseudonyms', async () => {
    const h = setup();
    await screen.findByRole('form', { name: 'Research export filters' });
    expect(screen.queryByRole('checkbox', { name: CONSENT_STATEMENT })).toBeNull();
    await h.ux.click(screen.getByRole('radio', { name: /^Include identities/ }));
    await h.ux.click(screen.getByRole('button', { name: 'Download package' }));
    expect(screen.getByText(CONSENT_REQUIRED_MESSAGE)).toBeTruthy();
    expect(h.downloads).toEqual([]);
    await h.ux.click(screen.getByRole('checkbox', { name: CONSENT_STATEMENT }));
    expect(screen.queryByText(CONSENT_REQUIRED_MESSAGE)).toBeNull();
    await h.ux.click(screen.getByRole('button', { name: 'Download package' }));
    expect(queryOf(h.downloads[0]!)).toEqual({ identities: 'included', consentConfirmed: 'true' });
    await h.ux.click(screen.getByRole('radio', { name: /^Pseudonymous/ }));
    await h.ux.click(screen.getByRole('radio', { name: /^Include identities/ }));
    expect((screen.getByRole('checkbox', { name: CONSENT_STATEMENT }) as HTMLInputElement).checked).toBe(false);
  });

  it('keeps the page when the log cannot be read again, and says so', async () => {
    const h = setup({
      log: async () => {
        throw new NetworkError();
      },
    });
    await screen.findByRole('form', { name: 'Research export filters' });
    await h.ux.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^The log could not be refreshed: /);
    expect(within(screen.getByRole('table', { name: 'Export log' })).getAllByRole('row')).toHaveLength(3);
  });
});
