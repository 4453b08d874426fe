import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { invitationMachine } from '../../machines/invitation/invitationMachine.ts';
import type { Notice } from '../../machines/shared/notice.ts';
import { InvitationActorContext } from '../../machines/invitation/useInvitation.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { provideSharedPortfolioForm } from '../../machines/sharedPortfolioForm/provideSharedPortfolioForm.ts';
import { sharedFormHasUnsavedChanges } from '../../machines/sharedPortfolioForm/sharedPortfolioFormMachine.ts';
import { SharedPortfolioFormActorContext } from '../../machines/sharedPortfolioForm/useSharedPortfolioForm.ts';
import { notify } from '../../views/feedback/toastStore.ts';
import { InvitationPage } from '../../views/pages/InvitationPage.tsx';
import { RubricsPage } from '../../views/pages/RubricsPage.tsx';
import { SharedPortfolioFormPage } from '../../views/pages/SharedPortfolioFormPage.tsx';
import { buildPath, paths } from '../../views/paths.ts';
import { PrivateRoute } from '../../views/routing/guards.tsx';
import { allowLeave, stayHere } from '../navigation/leaveGuard.ts';
import { useLeaveGuard } from '../navigation/useLeaveGuard.ts';

const toast = (notice: Notice) => notify(notice.message, notice.tone);

/** A route id as a number, or `null` when the address holds none. */
function parseId(raw: string | undefined): number | null {
  if (!raw || !/^[0-9]{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}

/** The form's logic with the app's toasts and navigation. */
function useFormLogic() {
  const [, navigate] = useLocation();
  return useMemo(
    () =>
      provideSharedPortfolioForm({
        notify: toast,
        navigateToSharedPortfolio: (id) => navigate(buildPath(paths.sharedPortfolio, { id })),
        navigateToSharedPortfolios: () => navigate(paths.sharedPortfolios),
        allowLeave,
        stayHere,
      }),
    [navigate],
  );
}

function SharedPortfolioForm({
  sharedPortfolioId,
  mode,
}: {
  sharedPortfolioId: number | null;
  mode: 'create' | 'edit';
}) {
  const logic = useFormLogic();
  const currentUser = useCurrentUser();
  return (
    <SharedPortfolioFormActorContext.Provider
      logic={logic}
      options={{ input: { mode, sharedPortfolioId, currentUser } }}
    >
      <SharedFormLeaveGuard />
      <SharedPortfolioFormPage />
    </SharedPortfolioFormActorContext.Provider>
  );
}

/** Asks the form's machine before anyone leaves the page. */
export function SharedFormLeaveGuard() {
  useLeaveGuard(SharedPortfolioFormActorContext.useActorRef(), sharedFormHasUnsavedChanges);
  return null;
}

/** `/shared-portfolios/new`. */
export function SharedPortfolioNewRoute() {
  return (
    <PrivateRoute>
      <SharedPortfolioForm key="new" mode="create" sharedPortfolioId={null} />
    </PrivateRoute>
  );
}

/** `/shared-portfolios/{id}/edit`. */
export function SharedPortfolioEditRoute({ params }: { params: { id?: string } }) {
  return (
    <PrivateRoute>
      <SharedPortfolioForm key={params.id} mode="edit" sharedPortfolioId={parseId(params.id)} />
    </PrivateRoute>
  );
}

function Invitation({ invitationId }: { invitationId: number | null }) {
  const [, navigate] = useLocation();
  const logic = useMemo(
    () =>
      invitationMachine.provide({
        actions: { notify: (_, notice: Notice) => toast(notice), navigateToDashboard: () => navigate(paths.dashboard) },
      }),
    [navigate],
  );
  return (
    <InvitationActorContext.Provider logic={logic} options={{ input: { invitationId } }}>
      <InvitationPage />
    </InvitationActorContext.Provider>
  );
}

/** `/invitation/{id}`. */
export function InvitationRoute({ params }: { params: { id?: string } }) {
  return (
    // An invitation opened signed out: the sign-in page says so, and the invitation opens after signing in.
    <PrivateRoute signIn>
      <Invitation key={params.id} invitationId={parseId(params.id)} />
    </PrivateRoute>
  );
}

/**
 * `/rubrics`: the installation's rubrics. With the shared portfolio's form in one chunk: both show
 * the same rubric panel, loaded on demand, so its chunk keeps the form's chunk as its only parent.
 */
export function RubricsRoute() {
  return <RubricsPage />;
}
