import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise, type InspectionEvent } from 'xstate';
import { allowLeave, guardedNavigation, stayHere } from '../app/navigation/leaveGuard.ts';
import { SharedFormLeaveGuard } from '../app/wiring/sharedFormRoutes.tsx';
import { provideSharedPortfolioForm } from '../machines/sharedPortfolioForm/provideSharedPortfolioForm.ts';
import type { SharedPortfolioFormInput } from '../machines/sharedPortfolioForm/sharedPortfolioFormMachine.ts';
import { SharedPortfolioFormActorContext } from '../machines/sharedPortfolioForm/useSharedPortfolioForm.ts';
import type { Portfolio } from '../schemas/portfolio.ts';
import type { SharedPortfolio, SharedPortfolioBody, SharedPortfolioListItem } from '../schemas/sharedPortfolio.ts';
import type { Me } from '../schemas/user.ts';
import { HeaderLink } from './portfolioHarness.tsx';
import { makeUser } from './renderApp.tsx';
import { makeMembers, makeSharedPortfolio, makeTemplatePortfolio, people } from './sharedFixtures.ts';
import { Toaster } from '../views/feedback/Toaster.tsx';
import { notify } from '../views/feedback/toastStore.ts';
import { SharedPortfolioFormPage } from '../views/pages/SharedPortfolioFormPage.tsx';

/**
 * The shared portfolio form page at the location's first address, as the app routes it: the header's
 * link, the leave guard, "Another page" for wherever the page goes, and the toasts.
 */
export function mountSharedPortfolioForm(
  logic: ReturnType<typeof provideSharedPortfolioForm>,
  location: ReturnType<typeof memoryLocation>,
  input: SharedPortfolioFormInput,
  inspect?: (event: InspectionEvent) => void,
): void {
  render(
    <Router hook={location.hook} aroundNav={guardedNavigation}>
      <HeaderLink />
      <Switch>
        <Route path={location.history![0]!}>
          <SharedPortfolioFormActorContext.Provider logic={logic} options={{ input, ...(inspect ? { inspect } : {}) }}>
            <SharedFormLeaveGuard />
            <SharedPortfolioFormPage />
          </SharedPortfolioFormActorContext.Provider>
        </Route>
        <Route>
          <p>Another page</p>
        </Route>
      </Switch>
      <Toaster />
    </Router>,
  );
}

/** What the tests of the shared portfolio form page share: its users, rendering the form with a fake API, its queries. */

export const lee = makeUser('plcLead', { id: people.lee.id, username: people.lee.username, email: people.lee.email });
export const rita = makeUser('researcher', { id: people.rita.id, username: people.rita.username });
export const tess = makeUser('teacher', { id: people.tess.id, username: people.tess.username });
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Options {
  mode?: 'create' | 'edit';
  sharedPortfolioId?: number | null;
  user?: Me | null;
  fetchTemplate?: () => Promise<Portfolio>;
  fetchSharedPortfolio?: () => Promise<SharedPortfolio>;
  save?: (body: SharedPortfolioBody) => Promise<SharedPortfolio>;
  remove?: () => Promise<SharedPortfolioListItem>;
}

export function renderForm({
  mode = 'create',
  sharedPortfolioId = 9,
  user = lee,
  fetchTemplate = async () => makeTemplatePortfolio(),
  fetchSharedPortfolio = async () => makeSharedPortfolio(),
  save = async (body) => makeSharedPortfolio({ id: 42, name: body.name }),
  remove = async () => {
    const { sharedArtifacts: _, ...sp } = makeSharedPortfolio();
    return { ...sp, sharedArtifacts: [] };
  },
}: Options = {}) {
  const calls = {
    fetchTemplate: 0,
    fetchSharedPortfolio: [] as number[],
    create: [] as SharedPortfolioBody[],
    update: [] as { id: number; body: SharedPortfolioBody }[],
    remove: [] as number[],
  };
  const navigateToSharedPortfolio = vi.fn<(id: number) => void>();
  const navigateToSharedPortfolios = vi.fn<() => void>();
  const logic = provideSharedPortfolioForm({
    notify: ({ message, tone }) => notify(message, tone),
    navigateToSharedPortfolio,
    navigateToSharedPortfolios,
    allowLeave,
    stayHere,
    actors: {
      fetchTemplate: fromPromise(() => {
        calls.fetchTemplate += 1;
        return fetchTemplate();
      }),
      fetchSharedPortfolio: fromPromise<SharedPortfolio, { id: number }>(({ input }) => {
        calls.fetchSharedPortfolio.push(input.id);
        return fetchSharedPortfolio();
      }),
      createSharedPortfolio: fromPromise<SharedPortfolio, { body: SharedPortfolioBody }>(({ input }) => {
        calls.create.push(input.body);
        return save(input.body);
      }),
      updateSharedPortfolio: fromPromise<SharedPortfolio, { id: number; body: SharedPortfolioBody }>(({ input }) => {
        calls.update.push(input);
        return save(input.body);
      }),
      deleteSharedPortfolio: fromPromise<SharedPortfolioListItem, { id: number }>(({ input }) => {
        calls.remove.push(input.id);
        return remove();
      }),
      fetchMembers: fromPromise(async () => makeMembers()),
    },
  });
  const location = memoryLocation({
    path: mode === 'create' ? '/shared-portfolios/new' : `/shared-portfolios/${sharedPortfolioId}/edit`,
    record: true,
  });
  mountSharedPortfolioForm(logic, location, { mode, sharedPortfolioId, currentUser: user });
  return {
    calls,
    navigateToSharedPortfolio,
    navigateToSharedPortfolios,
    location,
    ux: userEvent.setup({ delay: null }),
  };
}

export const nameField = () => screen.getByLabelText('Shared Portfolio Name') as HTMLInputElement;
export const includeSwitch = (text: string) => screen.getByRole('switch', { name: `Include: ${text}` });
export const rowOf = (text: string) => screen.getByRole('switch', { name: `Include: ${text}` }).closest('tr')!;
export const save = (ux: ReturnType<typeof userEvent.setup>) => ux.click(screen.getByRole('button', { name: 'SAVE' }));
export const describedBy = (element: HTMLElement) =>
  document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent;
