import { insightsMachine } from '../../machines/insights/insightsMachine.ts';
import { InsightsActorContext } from '../../machines/insights/useInsights.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { InsightsPage } from '../../views/pages/InsightsPage.tsx';

/**
 * `/insights`: the page's actor lives as long as the page, for the signed-in user. A chunk of its
 * own with the chart library, so no other page loads either (decision 057).
 */
export function InsightsRoute() {
  const currentUser = useCurrentUser();
  return (
    <InsightsActorContext.Provider logic={insightsMachine} options={{ input: { currentUser } }}>
      <InsightsPage />
    </InsightsActorContext.Provider>
  );
}
