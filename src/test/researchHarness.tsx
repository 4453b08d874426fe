/**
 * Test kit of the Research Export page: fixtures, and the page rendered the way the app wires it
 * (its actor for the signed-in user) with fake service actors and a recorded download.
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyActorLogic, InspectionEvent } from 'xstate';
import { researchExportMachine } from '../machines/researchExport/researchExportMachine.ts';
import { ResearchExportActorContext } from '../machines/researchExport/useResearchExport.ts';
import type { ResearchExportRecord } from '../schemas/researchExport.ts';
import type { Me } from '../schemas/user.ts';
import { ResearchExportPage } from '../views/pages/ResearchExportPage.tsx';

let nextId = 700;

/** An entry of the audit log as `GET /research/exports` returns it. */
export function makeExportRecord(overrides: Partial<ResearchExportRecord> = {}): ResearchExportRecord {
  nextId += 1;
  return {
    id: overrides.id ?? nextId,
    researcher: { id: 4, username: 'Rita Researcher' },
    parameters: { identities: 'pseudonymous' },
    status: 'completed',
    rowCounts: { teachers: 3, portfolios: 4, comments: 5 },
    bytes: 20_480,
    started_at: '2026-03-04T15:20:00.000Z',
    finished_at: '2026-03-04T15:20:02.000Z',
    ...overrides,
  };
}

/** The page for `user`, its actor made of `actors`; the download addresses it starts are kept in `downloads`. */
export function renderResearchExport({
  user,
  actors,
  inspect,
}: {
  user: Pick<Me, 'id' | 'abilities'> | null;
  actors: Record<string, AnyActorLogic>;
  inspect?: (event: InspectionEvent) => void;
}) {
  const downloads: string[] = [];
  const logic = researchExportMachine.provide({
    actors: actors as never,
    actions: { startDownload: (_, { url }) => downloads.push(url) },
  });
  const rendered = render(
    <ResearchExportActorContext.Provider
      logic={logic}
      options={{ input: { currentUser: user }, ...(inspect ? { inspect } : {}) }}
    >
      <ResearchExportPage />
    </ResearchExportActorContext.Provider>,
  );
  return { ...rendered, downloads, ux: userEvent.setup({ delay: null }) };
}
