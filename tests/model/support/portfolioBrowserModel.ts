/** Helpers of the two model tests of the portfolio browser (personal and shared portfolios). */
import { screen } from '@testing-library/react';
import type { PortfolioBrowserEvent } from '../../../src/machines/portfolioBrowser/portfolioBrowserMachine.ts';
import type { Artifact } from '../../../src/schemas/artifact.ts';
import type { Portfolio, PortfolioListItem } from '../../../src/schemas/portfolio.ts';
import { ApiError } from '../../../src/services/errors.ts';
import { renderMyPortfolios } from '../../../src/test/portfolioHarness.tsx';
import { coverageInspector } from './coverage.ts';
import { controllableActor, type Deferred } from './deferred.ts';

export const serverError = new ApiError(500, 'internal_error', 'Something went wrong on the server.', '');

export const select = (portfolioId: number): PortfolioBrowserEvent => ({ type: 'portfolio.select', portfolioId });

export const actorEvent = (type: string, payload: Record<string, unknown>) =>
  ({ type, ...payload }) as unknown as PortfolioBrowserEvent;

/** A readable test name: the state reached and the events on the way (payloads in brief). */
export function pathName(path: { state: unknown; steps: readonly { event: { type: string } }[] }): string {
  const brief = (event: Record<string, unknown>) => {
    const { type, output, error, ...rest } = event;
    const extra =
      error instanceof Error
        ? ((error as Error & { status?: number }).status ?? error.name)
        : output !== undefined
          ? '…'
          : Object.values(rest).join(',');
    return extra === '' ? String(type) : `${String(type)}(${String(extra)})`;
  };
  const value = JSON.stringify((path.state as { value: unknown }).value);
  return `reaches ${value}: ${path.steps.map((step) => brief(step.event as Record<string, unknown>)).join(' → ')}`;
}

/** Settles the newest call of a fake service (an older one was cancelled by the machine). */
export function latest<T, I>(fake: {
  calls: { input: I; deferred: Deferred<T> }[];
}): { input: I; deferred: Deferred<T> } {
  const call = fake.calls.at(-1);
  if (!call) throw new Error('The page made no request to settle');
  fake.calls.length = 0;
  return call;
}

/** The page's alerts, leaving out the toasts. */
export const pageAlerts = () =>
  screen.queryAllByRole('alert').filter((el) => !el.closest('[aria-label="Notifications"]'));

/** My Portfolios at `path`, its service calls answered by the test (`fakes`). */
export function renderBrowser(path: string) {
  const fakes = {
    listPortfolios: controllableActor<PortfolioListItem[], { owner: number | null }>(),
    getPortfolio: controllableActor<Portfolio, { portfolioId: number }>(),
    createArtifact: controllableActor<Artifact, { portfolioId: number }>(),
  };
  const rendered = renderMyPortfolios({
    path,
    actors: {
      listPortfolios: fakes.listPortfolios.logic,
      getPortfolio: fakes.getPortfolio.logic,
      createArtifact: fakes.createArtifact.logic,
    },
    inspect: coverageInspector,
  });
  return { ...rendered, fakes };
}
