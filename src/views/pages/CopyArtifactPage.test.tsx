import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { CopyFrom, CopyRequest } from '../../machines/copyArtifact/copyArtifactMachine.ts';
import type { Artifact } from '../../schemas/artifact.ts';
import type { SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import type { SharedArtifact, SharedPortfolio, SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { renderCopyArtifactPage } from '../../test/copyArtifactHarness.tsx';
import { makeSharedArtifact, makeSharedPortfolio } from '../../test/sharedFixtures.ts';
import { clearToasts } from '../feedback/toastStore.ts';
import { INCLUDE_NOTES_LABEL } from './CopyArtifactPage.tsx';

/** A shared portfolio as `GET /shared-portfolios` lists it. */
function listItem(overrides: Partial<SharedPortfolio> = {}): SharedPortfolioListItem {
  const { sharedArtifacts, ...rest } = makeSharedPortfolio(overrides);
  return {
    ...rest,
    sharedArtifacts: sharedArtifacts.map(({ id, owner, created_at, updated_at }) => ({
      id,
      owner: { id: owner.id },
      created_at,
      updated_at,
    })),
  };
}

const AUTHOR_ID = 3;
const science = listItem({
  id: 9,
  name: 'Grades 5–7 Science PLC',
  topic: 'Forces and motion',
  plcName: 'Middle school science',
});
const engineering = listItem({ id: 12, name: 'Engineering Design Circle', topic: null, plcName: '  ' });
const completed = makeArtifact({
  id: 31,
  portfolio: { id: 7 },
  parkingLot: false,
  responses: { artifactName: 'Ramp race' },
});
const sharedSource: SharedArtifactDetail = {
  ...makeSharedArtifact({ id: 70, sharedPortfolio: { id: 9 }, responses: { artifactName: 'Food web' } }),
  reactions: [],
  comments: [],
  version: 1,
};
const copied = (id: number, sharedPortfolioId: number): SharedArtifact =>
  makeSharedArtifact({ id, sharedPortfolio: { id: sharedPortfolioId } });

interface Options {
  from?: CopyFrom;
  portfolioId?: number;
  artifactId?: number;
  userId?: number | null;
  fetchArtifact?: () => Promise<Artifact>;
  fetchSharedArtifact?: () => Promise<SharedArtifactDetail>;
  list?: () => Promise<SharedPortfolioListItem[]>;
  copy?: (request: CopyRequest) => Promise<SharedArtifact>;
}

function renderPage({
  from = 'artifact',
  portfolioId = 7,
  artifactId = 31,
  userId = AUTHOR_ID,
  fetchArtifact = async () => completed,
  fetchSharedArtifact = async () => sharedSource,
  list = async () => [science, engineering],
  copy = async (request) => copied(300, request.sharedPortfolioId),
}: Options = {}) {
  const calls = {
    fetchArtifact: [] as number[],
    fetchSharedArtifact: [] as number[],
    list: 0,
    copy: [] as CopyRequest[],
  };
  const page = renderCopyArtifactPage(
    { from, portfolioId, artifactId, userId },
    {
      fetchArtifact: fromPromise<Artifact, { artifactId: number }>(({ input }) => {
        calls.fetchArtifact.push(input.artifactId);
        return fetchArtifact();
      }),
      fetchSharedArtifact: fromPromise<SharedArtifactDetail, { artifactId: number }>(({ input }) => {
        calls.fetchSharedArtifact.push(input.artifactId);
        return fetchSharedArtifact();
      }),
      listSharedPortfolios: fromPromise<SharedPortfolioListItem[]>(() => {
        calls.list += 1;
        return list();
      }),
      copyArtifact: fromPromise<SharedArtifact, CopyRequest>(({ input }) => {
        calls.copy.push(input);
        return copy(input);
      }),
    },
  );
  return { ...page, calls };
}

/** A promise the test settles by hand. */
function pending<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const group = () => screen.findByRole('group', { name: 'Copy snapshot of artifact to:' });
const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const labelOf = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-labelledby')!)!.textContent;
const optionText = (name: string) => radio(name).closest('li')!.textContent;
const description = (name: string) =>
  (radio(name).getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)!.textContent)
    .join('|');

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('Copy Artifact page', () => {
  it('shows the artifact and the shared portfolios with their topic and PLC name, by name', async () => {
    const h = renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Copy Artifact' })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Loading artifact' })).toBeTruthy();
    const list = await group();
    expect(screen.getByText('Ramp race', { selector: 'dd' })).toBeTruthy();
    expect(within(list).getAllByRole('radio').map(labelOf)).toEqual([
      'Engineering Design Circle',
      'Grades 5–7 Science PLC',
    ]);
    expect(optionText('Grades 5–7 Science PLC')).toBe(
      'Grades 5–7 Science PLCPortfolio Topic: Forces and motionPLC Name: Middle school science',
    );
    expect(description('Grades 5–7 Science PLC')).toBe(
      'Portfolio Topic: Forces and motionPLC Name: Middle school science',
    );
    // No topic and a blank PLC name: only the name.
    expect(optionText('Engineering Design Circle')).toBe('Engineering Design Circle');
    expect(radio('Engineering Design Circle').getAttribute('aria-describedby')).toBeNull();
    expect(
      within(list)
        .getAllByRole('radio')
        .every((r) => !(r as HTMLInputElement).checked),
    ).toBe(true);
    expect(h.calls).toEqual({ fetchArtifact: [31], fetchSharedArtifact: [], list: 1, copy: [] });
    expect(document.title).toBe('Copy Artifact · PracticeFolio');
  });

  it('keeps COMPLETE COPY disabled until a shared portfolio is chosen', async () => {
    const h = renderPage();
    await group();
    expect(button('COMPLETE COPY').disabled).toBe(true);
    expect(button('CANCEL').disabled).toBe(false);
    await h.ux.click(button('COMPLETE COPY'));
    expect(h.calls.copy).toEqual([]);
    await h.ux.click(screen.getByText('Grades 5–7 Science PLC'));
    expect(radio('Grades 5–7 Science PLC').checked).toBe(true);
    expect(button('COMPLETE COPY').disabled).toBe(false);
  });

  it('is operable with the keyboard: arrows move the choice, Enter on COMPLETE COPY copies', async () => {
    // jsdom has no CSS.escape, which user-event needs to walk a radio group with the arrow keys.
    vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });
    const h = renderPage();
    await group();
    await h.ux.tab();
    expect(document.activeElement).toBe(radio('Engineering Design Circle'));
    await h.ux.keyboard(' ');
    expect(radio('Engineering Design Circle').checked).toBe(true);
    await h.ux.keyboard('{ArrowDown}');
    expect(radio('Grades 5–7 Science PLC').checked).toBe(true);
    expect(radio('Engineering Design Circle').checked).toBe(false);
    // The private notes choice (a personal artifact), off by default; Space ticks it.
    await h.ux.tab();
    const notes = screen.getByRole('checkbox', { name: INCLUDE_NOTES_LABEL }) as HTMLInputElement;
    expect(document.activeElement).toBe(notes);
    expect(notes.checked).toBe(false);
    await h.ux.keyboard(' ');
    expect(notes.checked).toBe(true);
    await h.ux.tab();
    expect(document.activeElement).toBe(button('CANCEL'));
    await h.ux.tab();
    expect(document.activeElement).toBe(button('COMPLETE COPY'));
    await h.ux.keyboard('{Enter}');
    await waitFor(() =>
      expect(h.calls.copy).toEqual([{ from: 'artifact', artifactId: 31, sharedPortfolioId: 9, includeNotes: true }]),
    );
  });

  it('disables the whole form and shows "Copying artifact to shared portfolio" with a spinner while copying', async () => {
    const answer = pending<SharedArtifact>();
    const h = renderPage({ copy: () => answer.promise });
    await group();
    expect(screen.queryByText('Copying artifact to shared portfolio')).toBeNull();
    expect(screen.queryByTestId('busy-spinner')).toBeNull();
    await h.ux.click(radio('Engineering Design Circle'));
    await h.ux.click(button('COMPLETE COPY'));
    const progress = screen.getByText('Copying artifact to shared portfolio');
    expect(progress.closest('[role="status"]')).toBeTruthy();
    expect(screen.getByTestId('busy-spinner')).toBeTruthy();
    expect((screen.getByRole('group', { name: 'Copy snapshot of artifact to:' }) as HTMLFieldSetElement).disabled).toBe(
      true,
    );
    for (const r of screen.getAllByRole('radio')) expect((r as HTMLInputElement).disabled).toBe(true);
    expect(button('CANCEL').disabled).toBe(true);
    expect(button('COMPLETE COPY').disabled).toBe(true);
    expect(screen.getByRole('form', { name: 'Copy artifact' }).getAttribute('aria-busy')).toBe('true');
    await h.ux.click(radio('Grades 5–7 Science PLC'));
    expect(radio('Engineering Design Circle').checked).toBe(true);
    expect(h.calls.copy).toEqual([{ from: 'artifact', artifactId: 31, sharedPortfolioId: 12, includeNotes: false }]);
    await act(async () => answer.resolve(copied(301, 12)));
  });

  it('alerts the server’s message when the copy fails and enables the form again with the choice kept', async () => {
    let fail = true;
    const h = renderPage({
      copy: async (request) => {
        if (fail) throw new ApiError(403, 'forbidden', 'You are not a member of this shared portfolio.', '');
        return copied(302, request.sharedPortfolioId);
      },
    });
    await group();
    await h.ux.click(radio('Grades 5–7 Science PLC'));
    await h.ux.click(button('COMPLETE COPY'));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('You are not a member of this shared portfolio.')).toBeTruthy();
    expect(radio('Grades 5–7 Science PLC').checked).toBe(true);
    expect(radio('Grades 5–7 Science PLC').disabled).toBe(false);
    expect(button('COMPLETE COPY').disabled).toBe(false);
    expect(button('CANCEL').disabled).toBe(false);
    expect(screen.queryByText('Copying artifact to shared portfolio')).toBeNull();
    expect(h.navigateToCopy).not.toHaveBeenCalled();

    fail = false;
    await h.ux.click(button('COMPLETE COPY'));
    await waitFor(() => expect(h.navigateToCopy).toHaveBeenCalledWith({ sharedPortfolioId: 9, artifactId: 302 }));
    expect(h.calls.copy).toHaveLength(2);
  });

  it('says "Successfully copied artifact" and opens the edit page of the new shared artifact', async () => {
    const h = renderPage();
    await group();
    await h.ux.click(radio('Grades 5–7 Science PLC'));
    await h.ux.click(button('COMPLETE COPY'));
    expect(await screen.findByText('Successfully copied artifact')).toBeTruthy();
    expect(h.navigateToCopy).toHaveBeenCalledTimes(1);
    expect(h.navigateToCopy).toHaveBeenCalledWith({ sharedPortfolioId: 9, artifactId: 300 });
    expect(h.calls.copy).toEqual([{ from: 'artifact', artifactId: 31, sharedPortfolioId: 9, includeNotes: false }]);
    // Until the app leaves the page, nothing can be sent twice.
    expect(button('COMPLETE COPY').disabled).toBe(true);
  });

  it('goes back to the artifact with CANCEL', async () => {
    const h = renderPage();
    await group();
    await h.ux.click(button('CANCEL'));
    expect(h.navigateToArtifact).toHaveBeenCalledWith({ from: 'artifact', portfolioId: 7, artifactId: 31 });
    expect(h.calls.copy).toEqual([]);
  });

  it('in shared mode loads the shared artifact, lists every shared portfolio but its own and makes a shared copy', async () => {
    const h = renderPage({ from: 'sharedArtifact', portfolioId: 9, artifactId: 70, userId: 99 });
    await group();
    expect(screen.getByText('Food web', { selector: 'dd' })).toBeTruthy();
    expect(h.calls.fetchArtifact).toEqual([]);
    expect(h.calls.fetchSharedArtifact).toEqual([70]);
    // Shared artifacts have no private notes: nothing to include.
    expect(screen.queryByRole('checkbox', { name: INCLUDE_NOTES_LABEL })).toBeNull();
    // The shared portfolio it is in is not offered.
    expect(
      screen.getAllByRole('radio').map((r) => r.getAttribute('aria-label') ?? r.closest('label')?.textContent ?? ''),
    ).toHaveLength(1);
    expect(screen.queryByRole('radio', { name: /Grades 5–7 Science PLC/ })).toBeNull();
    await h.ux.click(radio('Engineering Design Circle'));
    await h.ux.click(button('COMPLETE COPY'));
    await waitFor(() => expect(h.navigateToCopy).toHaveBeenCalledWith({ sharedPortfolioId: 12, artifactId: 300 }));
    expect(h.calls.copy).toEqual([
      { from: 'sharedArtifact', artifactId: 70, sharedPortfolioId: 12, includeNotes: false },
    ]);
  });

  it('in shared mode says so when the shared artifact’s own portfolio is the only one', async () => {
    renderPage({ from: 'sharedArtifact', portfolioId: 9, artifactId: 70, userId: 99, list: async () => [science] });
    expect(
      await screen.findByText(
        'You are not a member of any other shared portfolio: a shared artifact is copied to another one.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'COMPLETE COPY' })).toBeNull();
  });

  it('explains up-front that a parking-lot artifact cannot be copied', async () => {
    const h = renderPage({ fetchArtifact: async () => ({ ...completed, parkingLot: true }) });
    expect(await screen.findByText(/Only completed artifacts can be copied/)).toBeTruthy();
    expect(screen.getByText('Ramp race', { selector: 'dd' })).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'COMPLETE COPY' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the artifact' }).getAttribute('href')).toBe(
      '/my-portfolios/7/artifacts/31',
    );
    expect(h.calls.list).toBe(0);
  });

  it('tells anyone but the author that only the author copies a personal artifact', async () => {
    renderPage({ userId: 99 });
    expect(await screen.findByText('Only the author of an artifact can copy it.')).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
  });

  it('says so when the user belongs to no shared portfolio, with a link to Shared Portfolios', async () => {
    renderPage({ list: async () => [] });
    expect(await screen.findByText('You are not a member of any shared portfolio yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Shared Portfolios' }).getAttribute('href')).toBe('/shared-portfolios');
    expect(screen.queryByRole('group')).toBeNull();
    expect(screen.queryByRole('button', { name: 'COMPLETE COPY' })).toBeNull();
  });

  it('says "Artifact not found." for a missing artifact, another portfolio’s artifact or an address without ids', async () => {
    const missing = renderPage({
      fetchArtifact: async () => Promise.reject(new ApiError(404, 'not_found', 'Artifact not found.', '')),
    });
    expect(await screen.findByText('Artifact not found.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to My Portfolios' }).getAttribute('href')).toBe('/my-portfolios');
    expect(missing.calls.list).toBe(0);
  });

  it('does not show an artifact under another portfolio’s address', async () => {
    renderPage({ portfolioId: 8 });
    expect(await screen.findByText('Artifact not found.')).toBeTruthy();
    expect(screen.queryByText('Ramp race')).toBeNull();
  });

  it('asks nothing for an address without ids, and says "Shared artifact not found." in shared mode', async () => {
    const h = renderPage({ from: 'sharedArtifact', artifactId: Number.NaN });
    expect(await screen.findByText('Shared artifact not found.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Shared Portfolios' }).getAttribute('href')).toBe(
      '/shared-portfolios',
    );
    expect(h.calls).toEqual({ fetchArtifact: [], fetchSharedArtifact: [], list: 0, copy: [] });
  });

  it('offers to try again when loading fails', async () => {
    let fail = true;
    const h = renderPage({ list: async () => (fail ? Promise.reject(new NetworkError()) : [science]) });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(new NetworkError().message)).toBeTruthy();
    fail = false;
    await h.ux.click(within(alert).getByRole('button', { name: 'Try again' }));
    await group();
    expect(h.calls.fetchArtifact).toEqual([31, 31]);
    expect(h.calls.list).toBe(2);
  });
});
