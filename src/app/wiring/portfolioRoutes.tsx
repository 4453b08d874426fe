import { useMemo, type ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { artifactCreateMachine } from '../../machines/artifactCreate/artifactCreateMachine.ts';
import { portfolioBrowserMachine } from '../../machines/portfolioBrowser/portfolioBrowserMachine.ts';
import type { Notice } from '../../machines/shared/notice.ts';
import { PortfolioBrowserActorContext } from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import {
  portfolioEditHasUnsavedChanges,
  portfolioEditMachine,
} from '../../machines/portfolioEdit/portfolioEditMachine.ts';
import { PortfolioEditActorContext } from '../../machines/portfolioEdit/usePortfolioEdit.ts';
import { ARTIFACT_SHARES, ArtifactSharesContext } from '../../machines/artifactShares/useArtifactShares.ts';
import { MomentsContext } from '../../machines/momentComment/useMomentComment.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { teacherPickerMachine } from '../../machines/teacherPicker/teacherPickerMachine.ts';
import { TeacherPickerActorContext } from '../../machines/teacherPicker/useTeacherPicker.ts';
import { teacherExportUrl } from '../../services/portfolioService.ts';
import { PageHeading } from '../../views/components/PageHeading.tsx';
import { notify } from '../../views/feedback/toastStore.ts';
import { MyPortfoliosPage } from '../../views/pages/MyPortfoliosPage.tsx';
import { PortfolioEditPage } from '../../views/pages/PortfolioEditPage.tsx';
import { TeacherPortfoliosDenied, TeacherPortfoliosPage } from '../../views/pages/TeacherPortfoliosPage.tsx';
import { buildPath, paths } from '../../views/paths.ts';
import { Problem } from '../../views/portfolios/Notices.tsx';
import { PORTFOLIO_NOT_FOUND } from '../../views/portfolios/PortfolioBrowser.tsx';
import { PrivateRoute } from '../../views/routing/guards.tsx';
import { allowLeave, stayHere } from '../navigation/leaveGuard.ts';
import { useLeaveGuard } from '../navigation/useLeaveGuard.ts';
import { ArtifactActionsProvider } from './artifactActions.tsx';
import { loadMoments } from './momentsLoader.ts';

type Navigate = (to: string, options?: { replace?: boolean }) => void;

const notifyAction = (_: unknown, notice: Notice) => notify(notice.message, notice.tone);

/** An id from the address: `null` when absent, `NaN` when it is not a positive whole number. */
function parseId(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  return /^[0-9]{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : Number.NaN;
}

const isBadId = (id: number | null): boolean => id !== null && Number.isNaN(id);

/** The address of Teacher Portfolios with the teacher, portfolio and artifact shown. */
export function teacherPortfoliosPath(place: {
  teacher?: number | null;
  portfolio?: number | null;
  artifact?: number | null;
}): string {
  const query = new URLSearchParams();
  for (const key of ['teacher', 'portfolio', 'artifact'] as const) {
    const id = place[key];
    if (id !== null && id !== undefined) query.set(key, String(id));
  }
  const search = query.toString();
  return search ? `${paths.teacherPortfolios}?${search}` : paths.teacherPortfolios;
}

/** The browser of My Portfolios with the app's navigation and toasts. */
export function provideMyPortfoliosBrowser(navigate: Navigate) {
  return portfolioBrowserMachine.provide({
    actions: {
      showPortfolio: (_, { portfolioId }) => navigate(buildPath(paths.myPortfolio, { id: portfolioId })),
      showArtifact: (_, { portfolioId, artifactId }) =>
        navigate(buildPath(paths.myArtifact, { id: portfolioId, artifactId }), { replace: true }),
      hideArtifact: (_, { portfolioId }) =>
        navigate(buildPath(paths.myPortfolio, { id: portfolioId }), { replace: true }),
    },
    actors: {
      artifactCreate: artifactCreateMachine.provide({
        actions: {
          openArtifactEditor: (_, { portfolioId, artifactId }) =>
            navigate(buildPath(paths.myArtifactEdit, { id: portfolioId, artifactId })),
          notify: notifyAction,
        },
      }),
    },
  });
}

/** The browser of Teacher Portfolios (one teacher's portfolios) with the app's navigation and toasts. */
export function provideTeacherBrowser(navigate: Navigate, teacher: number | null) {
  return portfolioBrowserMachine.provide({
    actions: {
      showPortfolio: (_, { portfolioId }) => navigate(teacherPortfoliosPath({ teacher, portfolio: portfolioId })),
      showArtifact: (_, { portfolioId, artifactId }) =>
        navigate(teacherPortfoliosPath({ teacher, portfolio: portfolioId, artifact: artifactId }), { replace: true }),
      hideArtifact: (_, { portfolioId }) =>
        navigate(teacherPortfoliosPath({ teacher, portfolio: portfolioId }), { replace: true }),
    },
  });
}

/** A user without personal portfolios (researchers) reads the teachers' instead. */
function PersonalOnly({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  if (user && !user.abilities.ownPortfolios) return <Redirect to={paths.teacherPortfolios} replace />;
  return <>{children}</>;
}

function MissingPortfolio({ title }: { title: string }) {
  return (
    <>
      <PageHeading title={title} />
      <Problem title={PORTFOLIO_NOT_FOUND} />
    </>
  );
}

function MyPortfolios({ portfolioId, artifactId }: { portfolioId: number | null; artifactId: number | null }) {
  const [, navigate] = useLocation();
  const logic = useMemo(() => provideMyPortfoliosBrowser(navigate), [navigate]);
  return (
    <ArtifactActionsProvider>
      <ArtifactSharesContext.Provider value={ARTIFACT_SHARES}>
        <MomentsContext.Provider value={loadMoments}>
          <PortfolioBrowserActorContext.Provider
            logic={logic}
            options={{ input: { mode: 'personal', owner: null, portfolioId, artifactId } }}
          >
            <MyPortfoliosPage portfolioId={portfolioId} artifactId={artifactId} />
          </PortfolioBrowserActorContext.Provider>
        </MomentsContext.Provider>
      </ArtifactSharesContext.Provider>
    </ArtifactActionsProvider>
  );
}

/**
 * `/my-portfolios`, `/my-portfolios/:id` and `/my-portfolios/:id/artifacts/:artifactId`: one page
 * (its actor lives on while the address moves between them).
 */
export function MyPortfoliosRoute({ params }: { params: { id?: string; artifactId?: string } }) {
  const portfolioId = parseId(params.id);
  const artifactId = parseId(params.artifactId);
  return (
    <PrivateRoute>
      <PersonalOnly>
        {isBadId(portfolioId) || isBadId(artifactId) ? (
          <MissingPortfolio title="My Portfolios" />
        ) : (
          <MyPortfolios portfolioId={portfolioId} artifactId={artifactId} />
        )}
      </PersonalOnly>
    </PrivateRoute>
  );
}

function PortfolioEdit({ portfolioId }: { portfolioId: number }) {
  const [, navigate] = useLocation();
  const logic = useMemo(
    () =>
      portfolioEditMachine.provide({
        actions: {
          showPortfolio: (_, params) => navigate(buildPath(paths.myPortfolio, { id: params.portfolioId })),
          showPortfolioList: () => navigate(paths.myPortfolios),
          notify: notifyAction,
          allowLeave,
          stayHere,
        },
      }),
    [navigate],
  );
  return (
    <PortfolioEditActorContext.Provider key={portfolioId} logic={logic} options={{ input: { portfolioId } }}>
      <PortfolioEditLeaveGuard />
      <PortfolioEditPage />
    </PortfolioEditActorContext.Provider>
  );
}

/** Asks the edit form's machine before anyone leaves the page. */
export function PortfolioEditLeaveGuard() {
  useLeaveGuard(PortfolioEditActorContext.useActorRef(), portfolioEditHasUnsavedChanges);
  return null;
}

/** `/my-portfolios/:id/edit`. */
export function PortfolioEditRoute({ params }: { params: { id?: string } }) {
  const portfolioId = parseId(params.id);
  return (
    <PrivateRoute>
      <PersonalOnly>
        {portfolioId === null || Number.isNaN(portfolioId) ? (
          <MissingPortfolio title="Edit Portfolio" />
        ) : (
          <PortfolioEdit portfolioId={portfolioId} />
        )}
      </PersonalOnly>
    </PrivateRoute>
  );
}

function TeacherPortfolios() {
  const query = new URLSearchParams(useSearch());
  const [teacherId, portfolioId, artifactId] = (['teacher', 'portfolio', 'artifact'] as const).map((key) => {
    const id = parseId(query.get(key));
    return id === null || Number.isNaN(id) ? null : id;
  }) as [number | null, number | null, number | null];
  const [, navigate] = useLocation();
  const pickerLogic = useMemo(
    () =>
      teacherPickerMachine.provide({
        actions: { showTeacher: (_, params) => navigate(teacherPortfoliosPath({ teacher: params.teacherId })) },
      }),
    [navigate],
  );
  const browserLogic = useMemo(() => provideTeacherBrowser(navigate, teacherId), [navigate, teacherId]);
  return (
    <TeacherPickerActorContext.Provider logic={pickerLogic} options={{ input: { teacherId } }}>
      <ArtifactSharesContext.Provider value={ARTIFACT_SHARES}>
        <TeacherPortfoliosPage
          teacherId={teacherId}
          portfolioId={portfolioId}
          artifactId={artifactId}
          exportUrl={teacherExportUrl()}
          browserLogic={browserLogic}
        />
      </ArtifactSharesContext.Provider>
    </TeacherPickerActorContext.Provider>
  );
}

/** `/teacher-portfolios` (researchers): the teacher, portfolio and artifact live in the query. */
export function TeacherPortfoliosRoute() {
  const user = useCurrentUser();
  return (
    <PrivateRoute>
      {user?.abilities.readTeacherPortfolios ? <TeacherPortfolios /> : <TeacherPortfoliosDenied />}
    </PrivateRoute>
  );
}
