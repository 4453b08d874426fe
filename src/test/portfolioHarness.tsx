/**
 * Test kit of the portfolio pages: fixtures, and the pages rendered the way the app wires them
 * (the app's navigation actions on a memory location) with fake service actors.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { Link, Route, Router, Switch, useRoute, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise, type AnyActorLogic, type InspectionEvent } from 'xstate';
import { allowLeave, guardedNavigation, stayHere } from '../app/navigation/leaveGuard.ts';
import { provideArtifactDelete } from '../app/wiring/artifactActions.tsx';
import {
  PortfolioEditLeaveGuard,
  provideMyPortfoliosBrowser,
  provideTeacherBrowser,
  teacherPortfoliosPath,
} from '../app/wiring/portfolioRoutes.tsx';
import { ArtifactDeleteContext } from '../machines/artifactDelete/useArtifactDelete.ts';
import type { portfolioBrowserMachine } from '../machines/portfolioBrowser/portfolioBrowserMachine.ts';
import { provideBrowserServices, type BrowserServices } from '../machines/portfolioBrowser/provideBrowserServices.ts';
import { PortfolioBrowserActorContext } from '../machines/portfolioBrowser/usePortfolioBrowser.ts';
import { portfolioEditMachine } from '../machines/portfolioEdit/portfolioEditMachine.ts';
import { PortfolioEditActorContext } from '../machines/portfolioEdit/usePortfolioEdit.ts';
import { teacherPickerMachine } from '../machines/teacherPicker/teacherPickerMachine.ts';
import { TeacherPickerActorContext } from '../machines/teacherPicker/useTeacherPicker.ts';
import type { Artifact } from '../schemas/artifact.ts';
import type { Portfolio, PortfolioListItem } from '../schemas/portfolio.ts';
import type { Me } from '../schemas/user.ts';
import { USER_ABILITIES } from './abilityFixtures.ts';
import { ApiError } from '../services/errors.ts';
import { Toaster } from '../views/feedback/Toaster.tsx';
import { notify } from '../views/feedback/toastStore.ts';
import { MyPortfoliosPage } from '../views/pages/MyPortfoliosPage.tsx';
import { PortfolioEditPage } from '../views/pages/PortfolioEditPage.tsx';
import { TeacherPortfoliosPage } from '../views/pages/TeacherPortfoliosPage.tsx';
import { BASIC_STRUCTURE, makeArtifact } from './artifactFixtures.ts';
import { preloadParts } from '../views/components/lazyParts.tsx';

// Parts of pages load on first use in the app (their own chunks); tests load them first, so that they render at once.
await preloadParts();

export { BASIC_STRUCTURE, makeArtifact };

let nextId = 9000;

/** A portfolio of the Basic template as `GET /portfolios/{id}` returns it. */
export function makePortfolio(overrides: Partial<Portfolio> = {}): Portfolio {
  nextId += 1;
  const id = overrides.id ?? nextId;
  return {
    id,
    name: `Portfolio ${id}`,
    created_at: '2026-02-03T15:00:00.000Z',
    updated_at: '2026-02-03T15:00:00.000Z',
    grades: ['5th'],
    subject: 'Science',
    topic: 'Pushes and pulls',
    template: 'Basic',
    owner: { id: 3, username: 'Tess Teacher', email: 'teacher@example.org' },
    structure: BASIC_STRUCTURE,
    artifacts: [],
    ...overrides,
  };
}

/** The portfolio as `GET /portfolios` lists it. */
export function listItemOf(portfolio: Portfolio): PortfolioListItem {
  return {
    ...portfolio,
    artifacts: portfolio.artifacts.map(({ id, parkingLot, created_at, updated_at }) => ({
      id,
      parkingLot,
      created_at,
      updated_at,
    })),
  };
}

/** A teacher, lead or researcher as `GET /users` lists them. */
export function makeAccount(id: number, username: string, role: 'teacher' | 'plcLead' | 'researcher' = 'teacher'): Me {
  const roles = {
    teacher: { id: 1, name: 'Teacher', description: 'Teacher', type: 'authenticated' },
    plcLead: { id: 3, name: 'PLC Lead', description: 'PLC Lead', type: 'plc_lead' },
    researcher: { id: 4, name: 'Researcher', description: 'Researcher', type: 'researcher' },
  } as const;
  return {
    id,
    username,
    email: `user${id}@example.org`,
    provider: 'local',
    confirmed: true,
    blocked: false,
    role: roles[role],
    abilities: USER_ABILITIES[role],
    created_at: '2026-01-01T10:00:00.000Z',
    updated_at: '2026-01-01T10:00:00.000Z',
  };
}

/** An ISO date `days` days before now. */
export const daysAgo = (days: number): string => new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();

/** A 404 as the API client throws it. */
export const notFoundError = () => new ApiError(404, 'not_found', 'Not found.', '{"message":"Not found."}');

/** Fake actors of the browser: the list and the portfolios answer at once unless replaced. */
export interface BrowserFakes {
  listPortfolios?: AnyActorLogic;
  getPortfolio?: AnyActorLogic;
  createArtifact?: AnyActorLogic;
}

/** Promise actors answering from fixed data. */
export function answeringBrowserActors(
  portfolios: readonly Portfolio[],
): Required<BrowserFakes> & { calls: { getPortfolio: number[]; createArtifact: number[]; listPortfolios: unknown[] } } {
  const calls = { getPortfolio: [] as number[], createArtifact: [] as number[], listPortfolios: [] as unknown[] };
  return {
    calls,
    listPortfolios: fromPromise<PortfolioListItem[], { owner: number | null }>(async ({ input }) => {
      calls.listPortfolios.push(input);
      return portfolios.map(listItemOf);
    }),
    getPortfolio: fromPromise<Portfolio, { portfolioId: number }>(async ({ input }) => {
      calls.getPortfolio.push(input.portfolioId);
      const found = portfolios.find((p) => p.id === input.portfolioId);
      if (!found) throw notFoundError();
      return found;
    }),
    createArtifact: fromPromise<Artifact, { portfolioId: number }>(async ({ input }) => {
      calls.createArtifact.push(input.portfolioId);
      return makeArtifact({ id: 777, portfolio: { id: input.portfolioId }, parkingLot: true });
    }),
  };
}

function withBrowserFakes(logic: typeof portfolioBrowserMachine, fakes: BrowserFakes): typeof portfolioBrowserMachine {
  const { listPortfolios, getPortfolio, createArtifact } = fakes as BrowserServices;
  return provideBrowserServices(logic, { listPortfolios, getPortfolio, createArtifact });
}

/** The app's delete logic of artifact views (it goes to the portfolio), with a delete that answers with the artifact. */
function fakeDeleteSetup(navigate: (to: string) => void) {
  const { logic } = provideArtifactDelete(navigate);
  return {
    logic: logic.provide({
      actors: {
        deleteArtifact: fromPromise<Artifact, { artifactId: number }>(async ({ input }) =>
          makeArtifact({ id: input.artifactId }),
        ),
      },
    }),
  };
}

const toId = (value: string | undefined | null): number | null => (value ? Number(value) : null);

function MyPortfoliosAt({
  logic,
  inspect,
}: {
  logic: typeof portfolioBrowserMachine;
  inspect?: ((event: InspectionEvent) => void) | undefined;
}) {
  const [withArtifact, artifactParams] = useRoute<{ id: string; artifactId: string }>(
    '/my-portfolios/:id/artifacts/:artifactId',
  );
  const [withPortfolio, portfolioParams] = useRoute<{ id: string }>('/my-portfolios/:id');
  const portfolioId = toId(withArtifact ? artifactParams.id : withPortfolio ? portfolioParams.id : null);
  const artifactId = toId(withArtifact ? artifactParams.artifactId : null);
  return (
    <PortfolioBrowserActorContext.Provider
      logic={logic}
      options={{ input: { mode: 'personal', owner: null, portfolioId, artifactId }, ...(inspect ? { inspect } : {}) }}
    >
      <MyPortfoliosPage portfolioId={portfolioId} artifactId={artifactId} />
    </PortfolioBrowserActorContext.Provider>
  );
}

/**
 * My Portfolios at `path` as the app wires it (its navigation moves a memory location, whose
 * changes reach the page as they would from the router), with fake service actors.
 */
export function renderMyPortfolios({
  path = '/my-portfolios',
  actors,
  inspect,
}: {
  path?: string;
  actors: BrowserFakes;
  inspect?: (event: InspectionEvent) => void;
}) {
  const location = memoryLocation({ path, record: true });
  const logic = withBrowserFakes(provideMyPortfoliosBrowser(location.navigate), actors);
  render(
    <Router hook={location.hook}>
      <Switch>
        <Route path="/my-portfolios/:id/artifacts/:artifactId/edit">
          <h1>Edit Artifact</h1>
        </Route>
        <Route>
          <ArtifactDeleteContext.Provider value={fakeDeleteSetup(location.navigate)}>
            <MyPortfoliosAt logic={logic} inspect={inspect} />
          </ArtifactDeleteContext.Provider>
        </Route>
      </Switch>
      <Toaster />
    </Router>,
  );
  return { location, ux: userEvent.setup() };
}

/** Fake actors of Teacher Portfolios. */
export interface TeacherFakes extends BrowserFakes {
  listTeachers: AnyActorLogic;
}

function TeacherPortfoliosAt({
  actors,
  navigate,
  inspect,
}: {
  actors: TeacherFakes;
  navigate: (to: string, options?: { replace?: boolean }) => void;
  inspect?: ((event: InspectionEvent) => void) | undefined;
}) {
  const query = new URLSearchParams(useSearch());
  const teacherId = toId(query.get('teacher'));
  const portfolioId = toId(query.get('portfolio'));
  const artifactId = toId(query.get('artifact'));
  const pickerLogic = teacherPickerMachine.provide({
    actors: { listTeachers: actors.listTeachers as never },
    actions: { showTeacher: (_, params) => navigate(teacherPortfoliosPath({ teacher: params.teacherId })) },
  });
  const browserLogic = withBrowserFakes(provideTeacherBrowser(navigate, teacherId), actors);
  return (
    <TeacherPickerActorContext.Provider
      logic={pickerLogic}
      options={{ input: { teacherId }, ...(inspect ? { inspect } : {}) }}
    >
      <TeacherPortfoliosPage
        teacherId={teacherId}
        portfolioId={portfolioId}
        artifactId={artifactId}
        exportUrl="http://portal.test/api/v1/portfolios/export"
        browserLogic={browserLogic}
      />
    </TeacherPickerActorContext.Provider>
  );
}

/** Teacher Portfolios at `path` (with its query) as the app wires it, with fake service actors. */
export function renderTeacherPortfolios({
  path = '/teacher-portfolios',
  actors,
  inspect,
}: {
  path?: string;
  actors: TeacherFakes;
  inspect?: (event: InspectionEvent) => void;
}) {
  const location = memoryLocation({ path, record: true });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <TeacherPortfoliosAt actors={actors} navigate={location.navigate} inspect={inspect} />
      <Toaster />
    </Router>,
  );
  return { location, ux: userEvent.setup() };
}

/** Fake actors of the Edit portfolio page. */
export interface EditFakes {
  getPortfolio: AnyActorLogic;
  updatePortfolio: AnyActorLogic;
  deletePortfolio: AnyActorLogic;
}

/** Edit portfolio for `portfolioId`, with spies for where it goes and fake service actors. */
export function renderPortfolioEdit({
  portfolioId,
  actors,
  inspect,
}: {
  portfolioId: number;
  actors: EditFakes;
  inspect?: (event: InspectionEvent) => void;
}) {
  const showPortfolio = vi.fn<(portfolioId: number) => void>();
  const showPortfolioList = vi.fn<() => void>();
  const location = memoryLocation({ path: `/my-portfolios/${portfolioId}/edit`, record: true });
  // The app's navigation passes the leave guard, as the router's `aroundNav` makes it.
  const navigate = (to: string) => guardedNavigation(location.navigate, to);
  const logic = portfolioEditMachine.provide({
    actors: actors as never,
    actions: {
      showPortfolio: (_, params) => {
        showPortfolio(params.portfolioId);
        navigate(`/my-portfolios/${params.portfolioId}`);
      },
      showPortfolioList: () => {
        showPortfolioList();
        navigate('/my-portfolios');
      },
      notify: (_, n) => notify(n.message, n.tone),
      allowLeave,
      stayHere,
    },
  });
  render(
    <Router hook={location.hook} aroundNav={guardedNavigation}>
      <HeaderLink />
      <Switch>
        <Route path="/my-portfolios/:id/edit">
          <PortfolioEditActorContext.Provider
            logic={logic}
            options={{ input: { portfolioId }, ...(inspect ? { inspect } : {}) }}
          >
            <PortfolioEditLeaveGuard />
            <PortfolioEditPage />
          </PortfolioEditActorContext.Provider>
        </Route>
        <Route>
          <p>Another page</p>
        </Route>
      </Switch>
      <Toaster />
    </Router>,
  );
  return { showPortfolio, showPortfolioList, location, ux: userEvent.setup() };
}

/** A link of the app's header, to leave the page in the harnesses of form pages. */
export function HeaderLink() {
  return (
    <nav aria-label="Main">
      <Link href="/dashboard">PORTFOLIO DASHBOARD</Link>
    </nav>
  );
}

/** The artifacts grid. */
export const artifactsGrid = () => screen.getByRole('grid', { name: 'Artifacts' });

/** The body rows of the artifacts grid (the rendered ones). */
export const artifactRows = () => within(artifactsGrid()).getAllByRole('row').slice(1);

/** The artifact names of the rendered rows, in order. */
export const rowNames = () =>
  artifactRows().map(
    (row) =>
      within(row)
        .getAllByRole('gridcell')
        .find((c) => c.textContent)?.textContent ?? '',
  );
