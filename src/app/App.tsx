import { useEffect, useMemo } from 'react';
import { Route, Router, Switch, useLocation } from 'wouter';
import { createActor } from 'xstate';
import type { AppConfig } from '../schemas/common.ts';
import { setUnauthorizedHandler } from '../services/api.ts';
import { hasSession } from '../services/session.ts';
import { sessionMachine } from '../machines/session/sessionMachine.ts';
import { SessionActorContext, type SessionActorRef } from '../machines/session/useSession.ts';
import { AppConfigContext } from '../views/appConfig.ts';
import { AppLayout } from '../views/layout/AppLayout.tsx';
import { NotFoundPage } from '../views/pages/NotFoundPage.tsx';
import { paths } from '../views/paths.ts';
import { PrivateRoute, PublicOnlyRoute, RootRedirect } from '../views/routing/guards.tsx';
import { GlobalStyle } from '../views/theme/GlobalStyle.ts';
import { guardedNavigation } from './navigation/leaveGuard.ts';
import { useRememberedPatterns } from './navigation/routePatterns.ts';
import { TypedTextGuardProvider } from './navigation/TypedTextGuard.tsx';
import { NotificationFeedProvider } from './NotificationFeedProvider.tsx';
import { Reauthentication } from './Reauthentication.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import { lazyRoute } from './lazyRoute.tsx';
// The sign-in page comes with the shell: every private page sends a newcomer there, so a cold
// visit lands on it most often and needs no second round trip for its page.
import { LoginRoute } from './wiring/authRoutes.tsx';

// Every other page loads with its route, so the first page needs only the shell and its own code.
const passwordRoutes = () => import('./wiring/passwordRoutes.tsx');
const publicRoutes = () => import('./wiring/publicRoutes.tsx');
const portfolioRoutes = () => import('./wiring/portfolioRoutes.tsx');
const viewerRoutes = () => import('./wiring/viewerRoutes.tsx');
const sharedFormRoutes = () => import('./wiring/sharedFormRoutes.tsx');
const ForgotPasswordRoute = lazyRoute(passwordRoutes, 'ForgotPasswordRoute');
const ResetPasswordRoute = lazyRoute(passwordRoutes, 'ResetPasswordRoute');
const HomeRoute = lazyRoute(publicRoutes, 'HomeRoute');
const AboutRoute = lazyRoute(publicRoutes, 'AboutRoute');
const PrivacyRoute = lazyRoute(publicRoutes, 'PrivacyRoute');
const HelpRoute = lazyRoute(publicRoutes, 'HelpRoute');
const DashboardRoute = lazyRoute(() => import('./wiring/dashboardRoute.tsx'), 'DashboardRoute');
const MyPortfoliosRoute = lazyRoute(portfolioRoutes, 'MyPortfoliosRoute');
const PortfolioEditRoute = lazyRoute(portfolioRoutes, 'PortfolioEditRoute');
const TeacherPortfoliosRoute = lazyRoute(portfolioRoutes, 'TeacherPortfoliosRoute');
const ArtifactEditRoute = lazyRoute(() => import('./wiring/artifactRoutes.tsx'), 'ArtifactEditRoute');
const ArtifactCopyRoute = lazyRoute(() => import('./wiring/copyRoutes.tsx'), 'ArtifactCopyRoute');
const SharedPortfoliosRoute = lazyRoute(() => import('./wiring/sharedRoutes.tsx'), 'SharedPortfoliosRoute');
const SharedArtifactEditRoute = lazyRoute(() => import('./wiring/sharedArtifactRoutes.tsx'), 'SharedArtifactEditRoute');
const InvitationRoute = lazyRoute(sharedFormRoutes, 'InvitationRoute');
const SharedPortfolioEditRoute = lazyRoute(sharedFormRoutes, 'SharedPortfolioEditRoute');
const SharedPortfolioNewRoute = lazyRoute(sharedFormRoutes, 'SharedPortfolioNewRoute');
const ManageUsersRoute = lazyRoute(() => import('./wiring/usersRoute.tsx'), 'ManageUsersRoute');
const ResearchExportRoute = lazyRoute(() => import('./wiring/researchRoute.tsx'), 'ResearchExportRoute');
const InsightsRoute = lazyRoute(() => import('./wiring/insightsRoute.tsx'), 'InsightsRoute');
const RubricsRoute = lazyRoute(sharedFormRoutes, 'RubricsRoute');
const CoverageRoute = lazyRoute(() => import('./wiring/coverageRoute.tsx'), 'CoverageRoute');
const notificationRoutes = () => import('./wiring/notificationRoutes.tsx');
const NotificationsRoute = lazyRoute(notificationRoutes, 'NotificationsRoute');
const NotificationSettingsRoute = lazyRoute(notificationRoutes, 'NotificationSettingsRoute');
const UnsubscribeRoute = lazyRoute(notificationRoutes, 'UnsubscribeRoute');
const AppPasswordRoute = lazyRoute(() => import('./wiring/appPasswordRoute.tsx'), 'AppPasswordRoute');
const ImageViewerRoute = lazyRoute(viewerRoutes, 'ImageViewerRoute');
const VideoViewerRoute = lazyRoute(viewerRoutes, 'VideoViewerRoute');

/**
 * Creates the app's session actor from the stored token; logging out reloads the site at `/`
 * (spec §4; at `/login` when the provider's own sign-out is offered), and any 401 from the API
 * ends the session.
 */
export function createSessionActor(
  reload: (path: string) => void = (path) => window.location.assign(path),
): SessionActorRef {
  const actor = createActor(sessionMachine.provide({ actions: { reloadHome: (_, params) => reload(params.path) } }), {
    input: { hasToken: hasSession() },
  });
  setUnauthorizedHandler(() => actor.send({ type: 'session.expired' }));
  return actor.start();
}

/** Every route of spec §2, with its access rule. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path={paths.root} component={RootRedirect} />
      <Route path={paths.home} component={HomeRoute} />
      <Route path={paths.about} component={AboutRoute} />
      <Route path={paths.privacy} component={PrivacyRoute} />
      <Route path={paths.help} component={HelpRoute} />
      <Route path={paths.login}>
        <PublicOnlyRoute>
          <LoginRoute />
        </PublicOnlyRoute>
      </Route>
      <Route path={paths.forgotPassword} component={ForgotPasswordRoute} />
      <Route path={paths.resetPassword}>
        {(params: { code: string }) => (
          <PublicOnlyRoute>
            <ResetPasswordRoute code={params.code} />
          </PublicOnlyRoute>
        )}
      </Route>
      <Route path={paths.imageViewer} component={ImageViewerRoute} />
      <Route path={paths.videoViewer} component={VideoViewerRoute} />
      <Route path={paths.dashboard}>
        <PrivateRoute>
          <DashboardRoute />
        </PrivateRoute>
      </Route>
      <Route path={paths.myPortfolios} component={MyPortfoliosRoute} />
      <Route path={paths.myPortfolioEdit} component={PortfolioEditRoute} />
      <Route path={paths.myArtifactEdit} component={ArtifactEditRoute} />
      <Route path={paths.myArtifactCopy} component={ArtifactCopyRoute} />
      <Route path={paths.myArtifact} component={MyPortfoliosRoute} />
      <Route path={paths.myPortfolio} component={MyPortfoliosRoute} />
      <Route path={paths.teacherPortfolios} component={TeacherPortfoliosRoute} />
      <Route path={paths.sharedPortfolioNew} component={SharedPortfolioNewRoute} />
      <Route path={paths.sharedPortfolios} component={SharedPortfoliosRoute} />
      <Route path={paths.sharedPortfolioEdit} component={SharedPortfolioEditRoute} />
      <Route path={paths.sharedArtifactEdit} component={SharedArtifactEditRoute} />
      <Route path={paths.sharedArtifactCopy} component={ArtifactCopyRoute} />
      <Route path={paths.sharedArtifact} component={SharedPortfoliosRoute} />
      <Route path={paths.sharedPortfolio} component={SharedPortfoliosRoute} />
      <Route path={paths.invitation} component={InvitationRoute} />
      <Route path={paths.notifications} component={NotificationsRoute} />
      <Route path={paths.notificationSettings} component={NotificationSettingsRoute} />
      <Route path={paths.appPassword} component={AppPasswordRoute} />
      <Route path={paths.unsubscribe} component={UnsubscribeRoute} />
      <Route path={paths.users}>
        <PrivateRoute>
          <ManageUsersRoute />
        </PrivateRoute>
      </Route>
      <Route path={paths.researchExport}>
        <PrivateRoute>
          <ResearchExportRoute />
        </PrivateRoute>
      </Route>
      <Route path={paths.insights}>
        <PrivateRoute>
          <InsightsRoute />
        </PrivateRoute>
      </Route>
      <Route path={paths.rubrics}>
        <PrivateRoute>
          <RubricsRoute />
        </PrivateRoute>
      </Route>
      <Route path={paths.coverage}>
        <PrivateRoute>
          <CoverageRoute />
        </PrivateRoute>
      </Route>
      <Route component={NotFoundPage} />
    </Switch>
  );
}

/**
 * The page an address shows: the artifact browsers keep one page while the address follows the
 * chosen portfolio and artifact.
 */
export function pageOf(location: string): string {
  const browser = /^\/(my-portfolios|shared-portfolios)(\/[0-9]+(\/artifacts\/[0-9]+)?)?\/?$/.exec(location);
  return browser ? `/${browser[1]}` : location;
}

/** Scrolls to the top when another page opens (not when a browser's selection moves the address). */
function ScrollToTop() {
  const [location] = useLocation();
  const page = pageOf(location);
  useEffect(() => {
    if (page && !navigator.userAgent.includes('jsdom')) window.scrollTo(0, 0);
  }, [page]);
  return null;
}

/** The whole app: theme, configuration, session, router, layout and routes. */
export function App({
  config,
  sessionActor,
  routerProps = {},
}: {
  config: AppConfig;
  sessionActor: SessionActorRef;
  /** Wouter router options (tests pass a memory location). */
  routerProps?: Omit<Parameters<typeof Router>[0], 'children'>;
}) {
  const actor = useMemo(() => sessionActor, [sessionActor]);
  const parser = useRememberedPatterns();
  return (
    <>
      <GlobalStyle />
      <AppConfigContext.Provider value={config}>
        <SessionActorContext.Provider value={actor}>
          <Router aroundNav={guardedNavigation} parser={parser} {...routerProps}>
            <ScrollToTop />
            <NotificationFeedProvider>
              <TypedTextGuardProvider>
                <AppLayout>
                  <RouteErrorBoundary>
                    <AppRoutes />
                  </RouteErrorBoundary>
                </AppLayout>
                <Reauthentication />
              </TypedTextGuardProvider>
            </NotificationFeedProvider>
          </Router>
        </SessionActorContext.Provider>
      </AppConfigContext.Provider>
    </>
  );
}
