/** The Copy Artifact page with fake services, for the copy model tests (`copyArtifact`, `copySource`). */
import type { SnapshotFrom } from 'xstate';
import type {
  copyArtifactMachine,
  CopyArtifactInput,
  CopyRequest,
} from '../../../src/machines/copyArtifact/copyArtifactMachine.ts';
import type { Artifact } from '../../../src/schemas/artifact.ts';
import type { SharedArtifactDetail } from '../../../src/schemas/sharedArtifact.ts';
import type { SharedArtifact, SharedPortfolioListItem } from '../../../src/schemas/sharedPortfolio.ts';
import { renderCopyArtifactPage } from '../../../src/test/copyArtifactHarness.tsx';
import { coverageInspector } from './coverage.ts';
import { controllableActor } from './deferred.ts';

export type CopyPageSnapshot = SnapshotFrom<typeof copyArtifactMachine>;

/** Renders the page for `input`; every service call waits for the test (`fakes`). */
export function renderCopyPage(input: CopyArtifactInput) {
  let live: CopyPageSnapshot | null = null;
  const fakes = {
    fetchArtifact: controllableActor<Artifact, { artifactId: number }>(),
    fetchSharedArtifact: controllableActor<SharedArtifactDetail, { artifactId: number }>(),
    listSharedPortfolios: controllableActor<SharedPortfolioListItem[]>(),
    copyArtifact: controllableActor<SharedArtifact, CopyRequest>(),
  };
  const page = renderCopyArtifactPage(
    input,
    {
      fetchArtifact: fakes.fetchArtifact.logic,
      fetchSharedArtifact: fakes.fetchSharedArtifact.logic,
      listSharedPortfolios: fakes.listSharedPortfolios.logic,
      copyArtifact: fakes.copyArtifact.logic,
    },
    (event) => {
      coverageInspector(event);
      if (event.type === '@xstate.snapshot' && event.actorRef.sessionId === event.rootId)
        live = event.snapshot as CopyPageSnapshot;
    },
  );
  return { ...page, input, fakes, live: () => live };
}

export type CopyPageHarness = ReturnType<typeof renderCopyPage>;
