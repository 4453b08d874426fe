import { useEffect, type ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import {
  consumeOrigin,
  currentOrigin,
  rememberOrigin,
  useSessionEvents,
  useSessionState,
} from '../../machines/session/useSession.ts';
import { useAppConfig } from '../appConfig.ts';
import { Button } from '../components/Button.tsx';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { paths } from '../paths.ts';

function Unreachable() {
  const { retry } = useSessionEvents();
  return (
    <div role="alert">
      <h1>The portal cannot be reached</h1>
      <p>Your session could not be checked because the server did not answer. Check your connection and try again.</p>
      <Button type="button" onClick={retry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * A page that needs a session: while the stored token is checked a skeleton shows; without a
 * session the requested path is remembered and the visitor goes to `/` (spec §2).
 */
export function PrivateRoute({
  children,
  signIn = false,
}: {
  children: ReactNode;
  /** Send a visitor without a session to the sign-in page itself (a link from an e-mail, e.g. an invitation). */
  signIn?: boolean;
}) {
  const state = useSessionState();
  const [location] = useLocation();
  const search = useSearch();
  if (state === 'authenticated') return <>{children}</>;
  if (state === 'anonymous') {
    rememberOrigin(search ? `${location}?${search}` : location);
    return <Redirect to={signIn ? paths.login : paths.root} replace />;
  }
  if (state === 'unreachable') return <Unreachable />;
  return <PageSkeleton />;
}

/**
 * Goes to the remembered origin (forgetting it) or the dashboard. The origin is only read while
 * rendering and forgotten in an effect: React may render a component twice before it commits
 * (StrictMode does in development), and a render that already forgot it would land on the dashboard.
 */
function RedirectToOrigin() {
  const origin = currentOrigin();
  const to = origin?.startsWith('/') && !origin.startsWith('//') ? origin : paths.dashboard;
  useEffect(() => {
    consumeOrigin(paths.dashboard);
  }, []);
  return <Redirect to={to} replace />;
}

/** `/login` and the reset screen: with a session, go to the origin or the dashboard. */
export function PublicOnlyRoute({ children }: { children: ReactNode }) {
  const state = useSessionState();
  if (state === 'authenticated') return <RedirectToOrigin />;
  if (state === 'anonymous' || state === 'unreachable') return <>{children}</>;
  return <PageSkeleton />;
}

function ExternalRedirect({ to }: { to: string }) {
  useEffect(() => {
    window.location.replace(to);
  }, [to]);
  return <PageSkeleton />;
}

/** `/`: the showcase site (or `/home`) without a session; the origin or the dashboard with one. */
export function RootRedirect() {
  const state = useSessionState();
  const { showcaseUrl } = useAppConfig();
  if (state === 'authenticated') return <RedirectToOrigin />;
  if (state === 'anonymous')
    return showcaseUrl ? <ExternalRedirect to={showcaseUrl} /> : <Redirect to={paths.home} replace />;
  if (state === 'unreachable') return <Unreachable />;
  return <PageSkeleton />;
}
