import { provideDashboard } from '../../machines/dashboard/provideDashboard.ts';
import { DashboardActorContext } from '../../machines/dashboard/useDashboard.ts';
import { provideTeacherArchive } from '../../machines/teacherArchive/provideTeacherArchive.ts';
import { TeacherArchiveActorContext } from '../../machines/teacherArchive/useTeacherArchive.ts';
import { ArchiveSection } from '../../views/dashboard/ArchiveSection.tsx';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { notify } from '../../views/feedback/toastStore.ts';
import { DashboardPage } from '../../views/pages/DashboardPage.tsx';

/** The dashboard with the real services; messages go to the toasts. */
const dashboardLogic = provideDashboard({ notify: ({ message, tone }) => notify(message, tone) });
const archiveLogic = provideTeacherArchive({ notify: ({ message, tone }) => notify(message, tone) });

/** `/dashboard` (inside the private-route guard of the route list): one actor per visit and user. */
export function DashboardRoute() {
  const user = useCurrentUser();
  const ownPortfolios = user?.abilities.ownPortfolios ?? true;
  return (
    <DashboardActorContext.Provider
      key={user?.id ?? 'nobody'}
      logic={dashboardLogic}
      options={{ input: { ownPortfolios } }}
    >
      <DashboardPage
        archive={
          ownPortfolios ? (
            <TeacherArchiveActorContext.Provider logic={archiveLogic} options={{ input: {} }}>
              <ArchiveSection />
            </TeacherArchiveActorContext.Provider>
          ) : null
        }
      />
    </DashboardActorContext.Provider>
  );
}
