import { AppPasswordActorContext } from '../../machines/appPassword/useAppPassword.ts';
import { AppPasswordPage } from '../../views/pages/AppPasswordPage.tsx';
import { PrivateRoute } from '../../views/routing/guards.tsx';

/** `/settings/app-password` (private): a password for the mobile apps. */
export function AppPasswordRoute() {
  return (
    <PrivateRoute>
      <AppPasswordActorContext.Provider>
        <AppPasswordPage />
      </AppPasswordActorContext.Provider>
    </PrivateRoute>
  );
}
