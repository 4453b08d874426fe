import { researchExportMachine } from '../../machines/researchExport/researchExportMachine.ts';
import { ResearchExportActorContext } from '../../machines/researchExport/useResearchExport.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { ResearchExportPage } from '../../views/pages/ResearchExportPage.tsx';

/** Starts the browser's download of `url` (an attachment: the page stays where it is). */
export function startDownload(_: unknown, { url }: { url: string }): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Research Export with the real services and the browser's download. */
const researchExportLogic = researchExportMachine.provide({ actions: { startDownload } });

/** `/research-export`: the page's actor lives as long as the page, for the signed-in user. */
export function ResearchExportRoute() {
  const currentUser = useCurrentUser();
  return (
    <ResearchExportActorContext.Provider logic={researchExportLogic} options={{ input: { currentUser } }}>
      <ResearchExportPage />
    </ResearchExportActorContext.Provider>
  );
}
